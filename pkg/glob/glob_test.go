package glob_test

import (
	"testing"

	"github.com/magehook/magehook/pkg/glob"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"*.md", "README.md", true},
		{"*.md", "docs/a/b.md", true},
		{"*.md", "docs/a/b.mdx", false},
		{"magefiles/**", "magefiles/targets/x.go", true},
		{"magefiles/**", "magefiles", true},
		{"magefiles/", "magefiles/x.go", true},
		{"magefiles/**", "pkg/magefiles/x.go", false},
		{"/go.mod", "go.mod", true},
		{"pkg/*/doc.go", "pkg/hook/doc.go", true},
		{"pkg/*/doc.go", "pkg/hook/sub/doc.go", false},
		{"pkg/**/doc.go", "pkg/hook/sub/doc.go", true},
		{"pkg/**/doc.go", "pkg/doc.go", true},
		{"**/*.sh", "a/b/c.sh", true},
		{"[", "x", false},
	}
	for _, c := range cases {
		if got := glob.Match(c.pattern, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
	if glob.Valid("a/[/b") || !glob.Valid("docs/**/*.md") {
		t.Error("Valid")
	}
}
