module github.com/magehook/magehook

go 1.26.0

tool github.com/magefile/mage

require github.com/magefile/mage v1.17.2

require github.com/google/renameio/v2 v2.0.2

require (
	github.com/bitfield/script v0.25.2
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/itchyny/gojq v0.12.13 // indirect
	github.com/itchyny/timefmt-go v0.1.5 // indirect
)

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
