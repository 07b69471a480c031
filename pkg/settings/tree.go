package settings

import "github.com/magehook/magehook/pkg/jsontree"

// The settings tree is package jsontree's; these names keep the settings
// API in one place for its callers.
type (
	// Object is a JSON object with its members in file order.
	Object = jsontree.Object
	// Member is one key of an object.
	Member = jsontree.Member
	// ParseError is a settings file that cannot be read faithfully.
	ParseError = jsontree.ParseError
)

// Parse reads a JSON document into a tree (see jsontree.Parse).
func Parse(data []byte) (any, error) { return jsontree.Parse(data) }

// Encode writes a tree as two-space indented JSON, keys sorted when
// sortKeys is set (see jsontree.Encode).
func Encode(v any, sortKeys bool) []byte { return jsontree.Encode(v, sortKeys) }

func typeName(v any) string { return jsontree.TypeName(v) }
