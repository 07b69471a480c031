package redact

// Plain is String without the decoding of percent-encoded and base64
// text: the rules alone, which the reference tests compare.
var Plain = plain
