package toolargs

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/magehook/magehook/pkg/payload"
)

func call(t *testing.T, js string) *payload.Payload {
	t.Helper()
	p, err := payload.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOfReadsPathsByNameAndShape(t *testing.T) {
	cases := []struct {
		js       string
		readOnly bool
		paths    []string
	}{
		{`{"tool_name":"mcp__fs__write_file","tool_input":{"path":"a.txt","content":"/etc/passwd"}}`, false, []string{"a.txt"}},
		{`{"tool_name":"mcp__fs__move_file","tool_input":{"source":"/r/a","destination":"/r/b"}}`, false, []string{"/r/a", "/r/b"}},
		{`{"tool_name":"mcp__x__bulk","tool_input":{"ops":[{"targetFile":"/r/c"},{"note":"~/d"}],"uri":"file:///r/e"}}`, false, []string{"/r/c", "/h/d", "/r/e"}},
		{`{"tool_name":"mcp__fs__read_text_file","tool_input":{"path":"/r/.toolingrc"}}`, true, nil},
		{`{"tool_name":"mcp__other__get_page","tool_input":{"url":"https://x/y"}}`, true, nil},
		{`{"tool_name":"mcp__other__get_or_create_file","tool_input":{"path":"/r/f"}}`, false, []string{"/r/f"}},
		{`{"tool_name":"mcp__other__frob","tool_input":{"url":"https://x/y","n":3}}`, false, nil},
		{`{"tool_name":"mcp__other__frob","tool_input":{"x":1},"tool_annotations":{"readOnlyHint":true}}`, true, nil},
		{`{"tool_name":"mcp__other__frob","tool_input":{"x":1},"tool_annotations":{"readOnlyHint":true,"destructiveHint":true}}`, false, nil},
		{`{"tool_name":"Read","tool_input":{"file_path":"/r/a"}}`, true, nil},
		{`{"tool_name":"Create","tool_input":{"file_path":"/r/a","content":"x"}}`, false, []string{"/r/a"}},
		{`{"tool_name":"Write","tool_input":{"file_path":"/r/a"}}`, false, nil}, // Known: the gates' own rules
	}
	for _, c := range cases {
		got := Of(call(t, c.js), "/h")
		var paths []string
		for _, p := range got.Paths {
			paths = append(paths, p.Value)
		}
		if got.ReadOnly != c.readOnly || !sameSet(paths, c.paths) {
			t.Errorf("%s: readOnly %v paths %q, want %v %q", c.js, got.ReadOnly, paths, c.readOnly, c.paths)
		}
	}
}

// Read's options: a reader's paths, and relative paths by their shape in
// arguments named neither path nor text (the gates that match globs).
func TestReadOptions(t *testing.T) {
	cases := []struct {
		js    string
		o     Options
		paths []string
	}{
		{`{"tool_name":"mcp__fs__read_text_file","tool_input":{"path":"/r/.env"}}`, Options{Readers: true}, []string{"/r/.env"}},
		{`{"tool_name":"mcp__fs__read_text_file","tool_input":{"path":"/r/.env"}}`, Options{}, nil},
		{`{"tool_name":"mcp__x__frob","tool_input":{"name":"config/.env","head":"feature/x","v":"1.2","w":"plain","content":"a/b","u":"https://h/p","s":"two words/x"}}`,
			Options{Relative: true}, []string{"config/.env", "feature/x", "1.2"}},
		{`{"tool_name":"mcp__x__frob","tool_input":{"name":"config/.env","head":"feature/x"}}`, Options{}, nil},
		{`{"tool_name":"mcp__x__frob","tool_input":{"name":"~/x.go"}}`, Options{Home: "/h", Relative: true}, []string{"/h/x.go"}},
	}
	for _, c := range cases {
		var paths []string
		for _, p := range Read(call(t, c.js), c.o).Paths {
			paths = append(paths, p.Value)
		}
		if !sameSet(paths, c.paths) {
			t.Errorf("%s %+v: paths %q, want %q", c.js, c.o, paths, c.paths)
		}
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b) || reflect.DeepEqual(a, b)
}

func TestShell(t *testing.T) {
	for js, want := range map[string]string{
		`{"tool_name":"run_shell_command","tool_input":{"command":"git push","directory":"/r"}}`: "git push",
		`{"tool_name":"Execute","tool_input":{"command":"ls","riskLevel":"low"}}`:                "ls",
		`{"tool_name":"mcp__sh__run","tool_input":{"cmd":"make"}}`:                               "make",
		`{"tool_name":"Bash","tool_input":{"command":"ls"}}`:                                     "",
		`{"tool_name":"Grep","tool_input":{"command":"x"}}`:                                      "",
	} {
		got, _ := Shell(call(t, js))
		if got != want {
			t.Errorf("%s: %q, want %q", js, got, want)
		}
	}
}

// fileURIPath reads a file:// URI as net/url reads its path.
func TestFileURIPathAsNetURL(t *testing.T) {
	for _, s := range []string{
		"file:///r/e", "file://localhost/etc/passwd", "file://host/a/b?q=1#f", "file:///a%20b/c",
		"file:///a%2Fb", "file:///bad%zz", "file:///trunc%4", "file:///trunc%", "file://", "file://host",
		"file:///a#frag/x", "file:///ctl\x01", "file:///%E2%82%AC", "file:///a+b", "file:///?x", "file:///a%41%61",
	} {
		got, ok := fileURIPath(s)
		u, err := url.Parse(s)
		if ok != (err == nil) || ok && got != u.Path {
			t.Errorf("fileURIPath(%q) = %q, %v; net/url: %q, %v", s, got, ok, u.Path, err)
		}
	}
}
