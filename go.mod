module github.com/magehook/magehook

go 1.26.0

tool github.com/magefile/mage

require github.com/magefile/mage v1.17.2

require github.com/google/renameio/v2 v2.0.2

require mvdan.cc/sh/v3 v3.14.1

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
