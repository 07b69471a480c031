package harness

// Sum256 is sum256, for tests.
var Sum256 = sum256
