package pwsh

import (
	"errors"
	"strings"
	"testing"
)

// TestParse: the commands of a script, those inside groups and strings
// first (they run first), with their pipelines and redirections.
func TestParse(t *testing.T) {
	for src, want := range map[string]string{
		"git commit -m 'wip'":                           "git commit -m wip",
		"git status; C:/bin/git.exe push origin main":   "git status|C:/bin/git.exe push origin main",
		"gci -r | Remove-Item":                          "gci -r|Remove-Item<0",
		`echo "$(git commit -m x)"`:                     "git commit -m x|echo ",
		"$x = @'\ngit push\n'@":                         "$x = git push",
		"ls # git commit\n<# git push #>":               "ls",
		"echo hi >> .claude/settings.json; git st 2>&1": "echo hi>.claude/settings.json|git st",
		"a && b || c &":                                 "a|b|c",
	} {
		cmds, err := Parse(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			var words []string
			for _, w := range c.Args {
				words = append(words, w.Text)
			}
			s := strings.Join(words, " ")
			for _, r := range c.Redirects {
				s += ">" + r.Text
			}
			if c.From >= 0 {
				s += "<" + string(rune('0'+c.From))
			}
			got = append(got, s)
		}
		if g := strings.Join(got, "|"); g != want {
			t.Errorf("%q: %q, want %q", src, g, want)
		}
	}
}

func TestNested(t *testing.T) {
	for src, want := range map[string]string{
		"pwsh -NoProfile -Command git commit -m x":                            "git commit -m x",
		"powershell -EncodedCommand ZwBpAHQAIABjAG8AbQBtAGkAdAAgAC0AbQAgAHgA": "git commit -m x",
		"pwsh -File x.ps1": "",
		"pwsh -c $x":       "",
	} {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := Nested(cmds[len(cmds)-1])
		if got != want {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, src := range []string{"echo 'x", `echo "x`, "ls {", "ls (", "<# x", "$x = @'\nx", "echo >", "ls }"} {
		if _, err := Parse(src); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: %v, want ErrSyntax", src, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("git commit -m 'x'; Set-Content a b > c")
	f.Add("1..3 | % { & $x } ; @\"\n$(git push)\n\"@")
	f.Fuzz(func(t *testing.T, src string) {
		Parse(src)
	})
}
