module github.com/magehook/magehook

go 1.26

tool github.com/magefile/mage

require github.com/magefile/mage v1.17.2
