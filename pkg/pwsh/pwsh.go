// Package pwsh reads what a PowerShell command line would run, for the
// gates: Claude Code's PowerShell tool and Copilot's powershell tool are
// gated like Bash.
//
// It is a reader of PowerShell's surface syntax, not an interpreter. It
// splits a script into commands (at ";", newlines, "|", "&&", "||" and a
// trailing "&"), reads quoted strings ('...' with a doubled quote as an escape, "..." and
// here-strings, backtick escapes), comments (# and <# #>), redirections,
// the call operators & and ., and reads the inside of every group ((...),
// $(...), @(...) and {...} script blocks) as commands that may run too.
// A word is literal when nothing in it is computed at run time (a
// variable, a subexpression).
//
// From the commands it finds the git commits and pushes, with the
// directory each runs in (git -C, a preceding Set-Location, cd or
// Push-Location), and the files the script writes: redirections and the
// path parameters of the cmdlets that change files (Set-Content,
// Add-Content, Out-File, New-Item, Remove-Item, Copy-Item, Move-Item,
// Rename-Item, Tee-Object, Clear-Content and their aliases).
//
// A writing cmdlet that takes its paths from a pipeline or from a (...)
// argument (Get-ChildItem -Recurse | Remove-Item, Remove-Item -Path
// (gci *.json)) is followed back, through the cmdlets that only filter or
// sort, to what produced them: a listing cmdlet's path, recursion and
// name filters (Analysis.Trees), literal strings, or a variable the
// script assigned a listing ($f = gci ...); paths it cannot follow
// ($files | rm, Get-Content list | rm) are Analysis.Unknown. An alias the
// script sets (Set-Alias, New-Alias) runs the command it names; Copy-Item
// and Move-Item record both ends (Analysis.Copies), Rename-Item's new name
// lands beside the item, New-Item -Name inside its -Path; $env:NAME and
// $HOME are read from the getenv given.
// Every command it runs is listed with its directory (Analysis.Commands),
// so a gate can judge the native ones as a shell's. pwsh -Command and
// -EncodedCommand are read as the scripts they run; a backslash separates
// paths, as PowerShell takes it everywhere. A Set-Location that fails (its
// directory does not exist) leaves PowerShell where it was: the commands
// and files after it say where they run and what they write then
// (Placed.Alt, Analysis.Alt), for a gate that looks the directory up.
//
// What it cannot see it reports as Opaque: a command whose name is
// computed, Invoke-Expression, Start-Process, a nested shell (cmd /c,
// bash -c, pwsh -File). A gate that needs to know fails closed on it.
package pwsh

import (
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/magehook/magehook/pkg/budget"
)

// Word is one argument as written, with quotes and escapes removed.
type Word struct {
	Text    string
	Literal bool // nothing in it is computed at run time
	Quoted  bool // it starts with a quote: as a statement, a value, not a command
	Group   bool // it holds a (...) or {...} group (a method call's arguments)
	// Inner is the index (in Parse's list) of the last command of the
	// word's (...), $(...) or @(...) group, whose output is the word's
	// value, or -1.
	Inner int
}

// Command is one command the script runs.
type Command struct {
	Args []Word // Args[0] is the command's name
	// Redirects are the files its output redirections write.
	Redirects []Word
	// From is the index (in Parse's list) of the command whose output
	// this one reads through a pipeline (a | b: b's From is a), or -1.
	From int
}

// Name is the command's name in lower case, without a directory or .exe.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	n := strings.ToLower(c.Args[0].Text)
	if i := strings.LastIndexAny(n, `/\`); i >= 0 {
		n = n[i+1:]
	}
	return strings.TrimSuffix(n, ".exe")
}

// ErrSyntax is wrapped by the error for a script that does not read (an
// unterminated string, group or comment).
var ErrSyntax = errors.New("the PowerShell command does not parse")

// MaxDepth bounds the nesting of groups read.
const MaxDepth = 100

// Parse returns the commands of a script, those inside groups included.
func Parse(src string) ([]Command, error) {
	p := &parser{src: src}
	if err := p.script(0); err != nil {
		return nil, err
	}
	return p.out, nil
}

type parser struct {
	src string
	i   int
	out []Command
}

func (p *parser) fail(what string) error {
	return errors.Join(ErrSyntax, errors.New(what))
}

// script reads commands until the end of the input.
func (p *parser) script(depth int) error {
	if depth > MaxDepth {
		return p.fail("groups nested too deep")
	}
	var cur Command
	prev, piped := -1, false
	flush := func() {
		if len(cur.Args) > 0 || len(cur.Redirects) > 0 {
			cur.From = -1
			if piped {
				cur.From = prev
			}
			p.out = append(p.out, cur)
			prev = len(p.out) - 1
		}
		cur = Command{}
	}
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '|' && p.i+1 < len(p.src) && p.src[p.i+1] == '|':
			p.i += 2
			flush()
			piped = false
		case c == '|':
			p.i++
			flush()
			piped = true
		case c == '\n' && piped && len(cur.Args) == 0 && len(cur.Redirects) == 0:
			p.i++ // a pipeline goes on past a line break after its |
		case c == '\n' || c == ';':
			p.i++
			flush()
			piped = false
		case c == '&' && p.i+1 < len(p.src) && p.src[p.i+1] == '&':
			p.i += 2
			flush()
			piped = false
		case c == '&' && (p.i+1 == len(p.src) || strings.IndexByte(" \t\r\n;", p.src[p.i+1]) >= 0) && len(cur.Args) > 0:
			p.i++ // a background job: the command ends here
			flush()
			piped = false
		case c == '#':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '<' && p.i+1 < len(p.src) && p.src[p.i+1] == '#':
			end := strings.Index(p.src[p.i+2:], "#>")
			if end < 0 {
				return p.fail("an unterminated <# comment")
			}
			p.i += 2 + end + 2
		case c == '`' && p.i+1 < len(p.src) && p.src[p.i+1] == '\n':
			p.i += 2 // a line continuation
		case isRedirect(p.src[p.i:]):
			target, err := p.redirect(depth)
			if err != nil {
				return err
			}
			if target != nil {
				cur.Redirects = append(cur.Redirects, *target)
			}
		default:
			w, err := p.word(depth)
			if err != nil {
				return err
			}
			cur.Args = append(cur.Args, w)
		}
	}
	flush()
	return nil
}

// isRedirect reports an output redirection at the start of s: >, >>, n>,
// n>>, *>, *>> (but not n>&m, which writes no file: redirect skips it).
func isRedirect(s string) bool {
	if s[0] == '>' {
		return true
	}
	return len(s) > 1 && (s[0] == '*' || s[0] >= '1' && s[0] <= '6') && s[1] == '>'
}

func (p *parser) redirect(depth int) (*Word, error) {
	for p.i < len(p.src) && p.src[p.i] != '>' {
		p.i++
	}
	for p.i < len(p.src) && p.src[p.i] == '>' {
		p.i++
	}
	if p.i < len(p.src) && p.src[p.i] == '&' {
		p.i++ // n>&m: into another stream
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
		}
		return nil, nil
	}
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
	if p.i == len(p.src) || strings.IndexByte("\n;|", p.src[p.i]) >= 0 {
		return nil, p.fail("a redirection without a file")
	}
	w, err := p.word(depth)
	if err != nil {
		return nil, err
	}
	return &w, nil
}

// word reads one argument: runs of bare characters, quoted strings and
// groups, up to a blank or a separator.
func (p *parser) word(depth int) (Word, error) {
	w := Word{Inner: -1, Literal: true, Quoted: p.src[p.i] == '\'' || p.src[p.i] == '"' || p.src[p.i] == '@' && p.i+1 < len(p.src) && (p.src[p.i+1] == '\'' || p.src[p.i+1] == '"')}
	var b strings.Builder
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case strings.IndexByte(" \t\r\n;|", c) >= 0:
			w.Text = b.String()
			return w, nil
		case c == '&' && p.i > start:
			w.Text = b.String()
			return w, nil
		case c == '>' && p.i > start:
			w.Text = b.String()
			return w, nil
		case c == '`':
			if p.i+1 < len(p.src) {
				b.WriteByte(p.src[p.i+1])
			}
			p.i += 2
		case c == '\'':
			s, err := p.single()
			if err != nil {
				return w, err
			}
			b.WriteString(s)
		case c == '"':
			s, literal, err := p.double(depth)
			if err != nil {
				return w, err
			}
			w.Literal = w.Literal && literal
			b.WriteString(s)
		case c == '@' && p.i+1 < len(p.src) && (p.src[p.i+1] == '\'' || p.src[p.i+1] == '"'):
			s, literal, err := p.here(depth)
			if err != nil {
				return w, err
			}
			w.Literal = w.Literal && literal
			b.WriteString(s)
		case c == '$' || c == '@' && p.i+1 < len(p.src) && p.src[p.i+1] == '(':
			w.Literal = false
			if p.i+1 < len(p.src) && p.src[p.i+1] == '(' {
				p.i++
				w.Group = true
				if err := p.group(depth, '(', ')'); err != nil {
					return w, err
				}
				w.Inner = len(p.out) - 1
				continue
			}
			b.WriteByte(c)
			p.i++
		case c == ')' || c == '}':
			return w, p.fail("a " + string(c) + " without its opening bracket")
		case c == '(' || c == '{':
			w.Literal, w.Group = false, true
			close := byte(')')
			if c == '{' {
				close = '}'
			}
			if err := p.group(depth, c, close); err != nil {
				return w, err
			}
			if c == '(' {
				w.Inner = len(p.out) - 1
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	w.Text = b.String()
	return w, nil
}

// group reads a (...) or {...} group, whose inside is a script that may
// run, and adds its commands.
func (p *parser) group(depth int, open, close byte) error {
	p.i++ // the opening character
	inner := &parser{src: p.src, i: p.i}
	end, err := matching(p.src, p.i, open, close)
	if err != nil {
		return err
	}
	inner.src = p.src[:end]
	if err := inner.script(depth + 1); err != nil {
		return err
	}
	p.merge(inner.out)
	p.i = end + 1
	return nil
}

// merge adds the commands an inner parser read, their links kept.
func (p *parser) merge(cmds []Command) {
	base := len(p.out)
	for _, c := range cmds {
		if c.From >= 0 {
			c.From += base
		}
		for i := range c.Args {
			if c.Args[i].Inner >= 0 {
				c.Args[i].Inner += base
			}
		}
		p.out = append(p.out, c)
	}
}

// matching finds the close that ends a group whose inside starts at i,
// skipping quoted strings, comments and nested groups.
func matching(s string, i int, open, close byte) (int, error) {
	depth := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == '`':
			i += 2
			continue
		case c == '\'':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(s) {
				return 0, errors.Join(ErrSyntax, errors.New("an unterminated string"))
			}
			i = j + 1
			continue
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '`' {
					j++
				}
			}
			if j >= len(s) {
				return 0, errors.Join(ErrSyntax, errors.New("an unterminated string"))
			}
			i = j + 1
			continue
		case c == '#' && (i == 0 || s[i-1] != '<'):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '(' || c == '{':
			depth++
		case c == ')' || c == '}':
			if depth == 0 {
				if c != close {
					return 0, errors.Join(ErrSyntax, errors.New("mismatched brackets"))
				}
				return i, nil
			}
			depth--
		}
		i++
	}
	return 0, errors.Join(ErrSyntax, errors.New("an unterminated "+string(open)))
}

func (p *parser) single() (string, error) {
	var b strings.Builder
	for p.i++; p.i < len(p.src); p.i++ {
		if p.src[p.i] == '\'' {
			if p.i+1 < len(p.src) && p.src[p.i+1] == '\'' {
				b.WriteByte('\'')
				p.i++
				continue
			}
			p.i++
			return b.String(), nil
		}
		b.WriteByte(p.src[p.i])
	}
	return "", p.fail("an unterminated '...' string")
}

func (p *parser) double(depth int) (string, bool, error) {
	var b strings.Builder
	literal := true
	for p.i++; p.i < len(p.src); {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), literal, nil
		case c == '`' && p.i+1 < len(p.src):
			b.WriteByte(p.src[p.i+1])
			p.i += 2
		case c == '$' && p.i+1 < len(p.src) && p.src[p.i+1] == '(':
			literal = false
			p.i++
			if err := p.group(depth, '(', ')'); err != nil {
				return "", false, err
			}
		case c == '$' && p.i+1 < len(p.src) && (isNameByte(p.src[p.i+1]) || p.src[p.i+1] == '{'):
			literal = false
			b.WriteByte(c)
			p.i++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false, p.fail(`an unterminated "..." string`)
}

// here reads a here-string: @' or @" at the end of a line, up to a line
// that starts with '@ or "@.
func (p *parser) here(depth int) (string, bool, error) {
	quote := p.src[p.i+1]
	nl := strings.IndexByte(p.src[p.i+2:], '\n')
	if nl < 0 {
		return "", false, p.fail("an unterminated here-string")
	}
	body := p.i + 2 + nl + 1
	closing := string(quote) + "@"
	text := ""
	if strings.HasPrefix(p.src[body:], closing) {
		p.i = body + len(closing)
	} else {
		end := strings.Index(p.src[body:], "\n"+closing)
		if end < 0 {
			return "", false, p.fail("an unterminated here-string")
		}
		text = p.src[body : body+end]
		p.i = body + end + 1 + len(closing)
	}
	if quote == '\'' {
		return text, true, nil
	}
	// The subexpressions of an expandable here-string run.
	for rest := text; ; {
		j := strings.Index(rest, "$(")
		if j < 0 {
			break
		}
		end, err := matching(rest, j+2, '(', ')')
		if err != nil {
			return "", false, err
		}
		inner := &parser{src: rest[:end], i: j + 2}
		if err := inner.script(depth + 1); err != nil {
			return "", false, err
		}
		p.merge(inner.out)
		rest = rest[end+1:]
	}
	return text, !strings.Contains(text, "$"), nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == ':' || c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Opaque reports a command whose effect this package cannot see, and why.
func Opaque(c Command) (string, bool) {
	if len(c.Args) > 0 && c.Args[0].Quoted {
		return "", false // a string value, not a command
	}
	if len(c.Args) > 0 && strings.HasPrefix(c.Args[0].Text, "[") {
		return "a .NET call can change any file", true
	}
	if len(c.Args) > 0 && strings.HasPrefix(c.Args[0].Text, "$") && !c.Args[0].Group {
		return "", false // a variable's value ($_.Name), not a command
	}
	if len(c.Args) > 0 && !c.Args[0].Literal {
		return "its name is computed at run time", true
	}
	name := c.Name()
	if (name == "&" || name == ".") && len(c.Args) > 1 {
		if !c.Args[1].Literal {
			return "it calls a command computed at run time", true
		}
		return Opaque(Command{Args: c.Args[1:]})
	}
	switch name {
	case "invoke-expression", "iex":
		return "Invoke-Expression runs text as code", true
	case "start-process", "saps", "start", "start-job", "sajb", "start-threadjob":
		return name + " runs a program with arguments it passes on", true
	case "cmd", "bash", "sh", "zsh", "wsl", "pwsh", "powershell":
		return name + " is another shell", true
	}
	return "", false
}

// Git is one git commit or git push a script runs.
type Git struct {
	Op  string // "commit" or "push"
	Dir string // the directory it runs in (absolute)
	// DirUnknown: the directory is computed at run time.
	DirUnknown bool
}

// Analysis is what a script does that the gates judge.
type Analysis struct {
	Git []Git
	// Writes are the files it writes (absolute, as written; a path
	// computed at run time keeps its text, $ included).
	Writes []string
	// Trees are the files it writes through a pipeline or a (...) from a
	// cmdlet that lists them (Get-ChildItem -Recurse | Remove-Item,
	// Remove-Item (gci *.json)).
	Trees []Tree
	// Unknown says why some files it writes cannot be known: a writing
	// cmdlet takes its paths from a pipeline or a (...) whose output this
	// reader cannot follow ($files | Remove-Item, Get-Content list.txt |
	// rm).
	Unknown []string
	// Opaque names the commands it cannot see into, with why.
	Opaque []string
	// Alt are the files it writes instead of some of Writes when a
	// Set-Location fails.
	Alt []AltWrite
	// Copies are the Copy-Item and Move-Item whose two ends are known: a
	// destination that is a directory receives the source under its own
	// name (Writes holds the destination as written).
	Copies []Copy
	// Commands are the commands it runs (the call operator taken off; not
	// the opaque ones, nor values), with the directory each runs in (Dir
	// is "" when it is computed at run time).
	Commands []Placed
}

// AltWrite is a file the script writes instead when the directory If does
// not exist (a Set-Location to it fails, and PowerShell goes on in the
// directory it was in).
type AltWrite struct {
	Path, If string
}

// Copy is one Copy-Item or Move-Item: its source and destination
// (absolute, as written).
type Copy struct {
	Src, Dest string
}

// copyEnds reads a Copy-Item's or Move-Item's source (-Path, -LiteralPath
// or the first position) and destination (-Destination or the second),
// when both are literal.
func copyEnds(name string, args []Word, join func(string) string, getenv func(string) string) (Copy, bool) {
	switch name {
	case "copy-item", "cpi", "cp", "copy", "move-item", "mi", "mv", "move":
	default:
		return Copy{}, false
	}
	var src, dst *Word
	pos := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a.Text, "-") && len(a.Text) > 1 && a.Literal {
			param, value, hasValue := strings.Cut(strings.ToLower(a.Text[1:]), ":")
			var v *Word
			switch {
			case isSwitch(param):
				continue
			case hasValue:
				v = &Word{Text: value, Literal: true, Inner: -1}
			case i+1 < len(args):
				i++
				v = &args[i]
			}
			switch {
			case strings.HasPrefix("destination", param):
				dst = v
			case strings.HasPrefix("path", param) || strings.HasPrefix("literalpath", param):
				src = v
			}
			continue
		}
		switch pos {
		case 0:
			src = &args[i]
		case 1:
			dst = &args[i]
		}
		pos++
	}
	if src == nil || dst == nil {
		return Copy{}, false
	}
	value := func(w *Word) (string, bool) {
		if w.Literal {
			return w.Text, !strings.ContainsAny(w.Text, "*?[,")
		}
		if w.Inner >= 0 {
			return "", false
		}
		return ExpandEnv(w.Text, getenv)
	}
	s, ok1 := value(src)
	d, ok2 := value(dst)
	if !ok1 || !ok2 || s == "" || d == "" {
		return Copy{}, false
	}
	return Copy{Src: join(s), Dest: join(d)}, true
}

// renameAsMove spells Rename-Item's -NewName as Move-Item's -Destination,
// so that copyEnds reads both ends.
func renameAsMove(args []Word) []Word {
	out := make([]Word, len(args))
	for i, a := range args {
		if p := strings.ToLower(a.Text); a.Literal && len(p) > 1 && strings.HasPrefix("-newname", p) && p != "-" {
			a = Word{Text: "-Destination", Literal: true, Inner: -1}
		}
		out[i] = a
	}
	return out
}

// Placed is a command and the directory it runs in; Alt is where it runs
// instead when the directory AltIf does not exist (the Set-Location to it
// failed).
type Placed struct {
	Command
	Dir, Alt, AltIf string
}

// Tree is what a listing cmdlet hands a writing one: the matches of Path
// (absolute, as written; a pattern when it holds * ? or [), or with
// Children the entries in each match that is a directory (all below it
// with Recurse), whose names match every one of Names (-Filter, -Include,
// compared without case, as PowerShell does). Subtree: what is below an
// entry changes too (Remove-Item, Move-Item, Rename-Item of a directory).
type Tree struct {
	Path     string
	Names    []string
	Children bool
	Recurse  bool
	Subtree  bool
}

// Analyze parses a script run in cwd and returns its git commits and
// pushes, the files it writes and what it cannot see into. A script that
// does not parse is an error (wrapping ErrSyntax).
//
// getenv, when given, reads the environment the script starts with, so
// that a path built from $env:NAME alone (Set-Content $env:TEMP\x) is
// known.
func Analyze(src, cwd string, getenv ...func(string) string) (Analysis, error) {
	var env func(string) string
	if len(getenv) > 0 {
		env = getenv[0]
	}
	return analyze(src, cwd, 0, env)
}

// ExpandEnv replaces $env:NAME and ${env:NAME} in a word's text with the
// variables' values; it fails when getenv is nil, a value is empty or
// something else in the word is computed.
func ExpandEnv(text string, getenv func(string) string) (string, bool) {
	if getenv == nil {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		rest := text[i:]
		if lower := strings.ToLower(rest); strings.HasPrefix(lower, "$home") && (len(rest) == 5 || !isNameByte(rest[5])) {
			// $HOME, PowerShell's own variable for the home directory.
			v := getenv("HOME")
			if v == "" {
				v = getenv("USERPROFILE")
			}
			if v == "" {
				return "", false
			}
			b.WriteString(v)
			i += 5
			continue
		}
		braced := strings.HasPrefix(strings.ToLower(rest), "${env:")
		if !braced && !strings.HasPrefix(strings.ToLower(rest), "$env:") {
			if text[i] == '$' || text[i] == '(' {
				return "", false
			}
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i + len("$env:")
		if braced {
			j++
		}
		k := j
		for k < len(text) && (isNameByte(text[k]) && text[k] != ':' && text[k] != '?') {
			k++
		}
		if braced {
			if k >= len(text) || text[k] != '}' {
				return "", false
			}
		}
		v := getenv(text[j:k])
		if v == "" {
			return "", false
		}
		b.WriteString(v)
		i = k
		if braced {
			i++
		}
	}
	return b.String(), true
}

func analyze(src, cwd string, depth int, getenv func(string) string) (Analysis, error) {
	if depth > MaxDepth {
		return Analysis{}, errors.Join(ErrSyntax, errors.New("nested shells too deep"))
	}
	if err := budget.CheckPowerShell("the command", src); err != nil {
		return Analysis{}, err
	}
	cmds, err := Parse(src)
	if err != nil {
		return Analysis{}, err
	}
	var a Analysis
	dir, dirKnown := cwd, true
	// alt is the directory the script is in when the last Set-Location
	// failed (its target, altIf, does not exist): PowerShell goes on in
	// the old one.
	alt, altIf := "", ""
	aliases := map[string]string{} // Set-Alias in the script
	joinIn := func(dir, p string) string {
		if filepath.Separator == '/' {
			// PowerShell takes \ for a separator everywhere.
			p = strings.ReplaceAll(p, `\`, "/")
		}
		if filepath.IsAbs(p) || strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") || len(p) > 1 && p[1] == ':' || dir == "" {
			return p // absolute, or a drive path
		}
		return dir + string(filepath.Separator) + p
	}
	join := func(p string) string { return joinIn(dir, p) }
	joinAlt := func(p string) string { return joinIn(alt, p) }
	vars := map[string]int{} // $x = <pipeline>: the index of its first command
	for ci, c := range cmds {
		for _, r := range c.Redirects {
			switch {
			case strings.EqualFold(r.Text, "$null") || r.Text == "" && r.Literal:
			case r.Literal:
				a.Writes = append(a.Writes, join(r.Text))
				if alt != "" && join(r.Text) != joinAlt(r.Text) {
					a.Alt = append(a.Alt, AltWrite{Path: joinAlt(r.Text), If: altIf})
				}
			default:
				if v, ok := ExpandEnv(r.Text, getenv); ok {
					a.Writes = append(a.Writes, join(v))
				} else {
					a.Writes = append(a.Writes, "$("+r.Text+")")
				}
			}
		}
		if len(c.Args) == 0 {
			continue
		}
		if len(c.Args) > 1 && strings.HasPrefix(c.Args[0].Text, "$") && isAssign(c.Args[1].Text) {
			// $x = <command>: the right-hand side runs, and $x holds
			// what its pipeline prints.
			if c.Args[1].Text == "=" {
				vars[strings.ToLower(c.Args[0].Text)] = ci
			}
			c.Args = c.Args[2:]
			if len(c.Args) == 0 {
				continue
			}
		}
		if script, ok := Nested(c); ok && dirKnown {
			// pwsh -Command '...', -EncodedCommand ...: read as the
			// script it is.
			sub, err := analyze(script, dir, depth+1, getenv)
			if err != nil {
				a.Opaque = append(a.Opaque, c.Args[0].Text+": a nested PowerShell that does not read ("+err.Error()+")")
				continue
			}
			a.Git = append(a.Git, sub.Git...)
			a.Writes = append(a.Writes, sub.Writes...)
			a.Trees = append(a.Trees, sub.Trees...)
			a.Unknown = append(a.Unknown, sub.Unknown...)
			a.Opaque = append(a.Opaque, sub.Opaque...)
			a.Commands = append(a.Commands, sub.Commands...)
			continue
		}
		if why, ok := Opaque(c); ok {
			a.Opaque = append(a.Opaque, c.Args[0].Text+": "+why)
			continue
		}
		args := c.Args
		if n := c.Name(); (n == "&" || n == ".") && len(args) > 1 {
			args = args[1:]
		}
		if to, ok := aliases[(Command{Args: args}).Name()]; ok {
			// An alias the script set: the command it names.
			args = append([]Word{{Text: to, Literal: true, Inner: -1}}, args[1:]...)
		}
		cmd := Command{Args: args, From: c.From, Redirects: c.Redirects}
		if !c.Args[0].Quoted && !strings.HasPrefix(c.Args[0].Text, "$") {
			placed := Placed{Command: cmd, Dir: dir, Alt: alt, AltIf: altIf}
			if !dirKnown {
				placed.Dir = ""
			}
			a.Commands = append(a.Commands, placed)
		}
		switch name := cmd.Name(); name {
		case "set-location", "sl", "cd", "chdir", "push-location", "pushd":
			if to, ok := firstPath(args[1:], "path", "literalpath"); ok {
				if to.Literal {
					prev := dir
					dir, dirKnown = filepath.Clean(join(to.Text)), true
					alt, altIf = prev, dir
				} else {
					dirKnown, alt, altIf = false, "", ""
				}
			}
		case "pop-location", "popd":
			dirKnown = false
		case "set-alias", "new-alias", "sal", "nal":
			// Set-Alias [-Name] x [-Value] Remove-Item: later uses of x
			// run Remove-Item; a computed one may run anything.
			var name, value *Word
			pos := 0
			for j := 1; j < len(args); j++ {
				w := args[j]
				if strings.HasPrefix(w.Text, "-") && w.Literal && len(w.Text) > 1 {
					p := strings.ToLower(strings.TrimPrefix(w.Text, "-"))
					if j+1 < len(args) && (strings.HasPrefix("name", p) || strings.HasPrefix("value", p)) {
						j++
						if strings.HasPrefix("name", p) {
							name = &args[j]
						} else {
							value = &args[j]
						}
					}
					continue
				}
				if pos == 0 {
					name = &args[j]
				} else if pos == 1 {
					value = &args[j]
				}
				pos++
			}
			if name != nil && value != nil {
				if !name.Literal || !value.Literal {
					a.Opaque = append(a.Opaque, args[0].Text+": an alias computed at run time")
				} else {
					aliases[strings.ToLower(name.Text)] = value.Text
				}
			}
		case "git":
			if g, ok := gitOp(args[1:], dir, dirKnown, join); ok {
				a.Git = append(a.Git, g)
			}
		default:
			w := writes(name, args[1:], join, getenv)
			for _, p := range w.paths {
				if v, ok := strings.CutPrefix(p, "$("); ok {
					if first, ok := vars[strings.ToLower(strings.TrimSuffix(v, ")"))]; ok && listing(cmds[first]) {
						// Remove-Item $files, $files = gci ...: what it lists.
						a.source(cmds, lastOf(cmds, first), args[0].Text, join, 0)
						continue
					}
				}
				a.Writes = append(a.Writes, p)
			}
			if alt != "" {
				wa := writes(name, args[1:], joinAlt, getenv)
				for i, p := range wa.paths {
					if i < len(w.paths) && p != w.paths[i] {
						a.Alt = append(a.Alt, AltWrite{Path: p, If: altIf})
					}
				}
			}
			if cp, ok := copyEnds(name, args[1:], join, getenv); ok {
				a.Copies = append(a.Copies, cp)
			}
			if name == "rename-item" || name == "rni" || name == "ren" {
				// The new name is in the item's own directory.
				if rn, ok := copyEnds("move-item", renameAsMove(args[1:]), join, getenv); ok {
					if n, rel := strings.CutPrefix(rn.Dest, join("")); rel && !strings.ContainsAny(n, `/\`) {
						a.Writes = append(a.Writes, filepath.Join(filepath.Dir(rn.Src), n))
					}
				}
			}
			if name == "new-item" || name == "ni" {
				// New-Item -Path dir -Name file makes dir/file.
				for j := 1; j+1 < len(args); j++ {
					if p := strings.ToLower(args[j].Text); args[j].Literal && len(p) > 2 && strings.HasPrefix("-name", p) {
						n := args[j+1]
						dirs := w.paths
						if len(dirs) == 0 {
							dirs = []string{join(".")}
						}
						for _, d := range dirs {
							if !n.Literal {
								a.Writes = append(a.Writes, "$("+d+"/"+n.Text+")")
							} else {
								a.Writes = append(a.Writes, d+string(filepath.Separator)+n.Text)
							}
						}
					}
				}
			}
			for _, i := range w.groups {
				a.source(cmds, i, args[0].Text, join, 0)
			}
			if w.fromPipe && cmd.From >= 0 {
				from := cmd.From
				if p := cmds[from]; len(p.Args) == 1 && !p.Args[0].Quoted {
					if first, ok := vars[strings.ToLower(p.Args[0].Text)]; ok && listing(cmds[first]) {
						from = lastOf(cmds, first) // $files | Remove-Item
					}
				}
				a.source(cmds, from, args[0].Text, join, 0)
			}
		}
	}
	return a, nil
}

// listing reports an assignment of a listing cmdlet's output ($f = gci
// ...): the only kind whose value a writer's paths are followed into.
func listing(c Command) bool {
	if len(c.Args) > 2 && isAssign(c.Args[1].Text) {
		c.Args = c.Args[2:]
	}
	switch c.Name() {
	case "get-childitem", "gci", "ls", "dir", "get-item", "gi", "resolve-path", "rvpa":
		return true
	}
	return false
}

// lastOf is the last command of the pipeline that starts at index first
// (what an assignment of it holds).
func lastOf(cmds []Command, first int) int {
	last := first
	for j := first + 1; j < len(cmds); j++ {
		if cmds[j].From == last {
			last = j
		}
	}
	return last
}

// source follows the output a writing cmdlet takes its paths from (the
// command at index i) back to what produced it, through the cmdlets that
// only filter or reorder it, and records what the writer reaches.
func (a *Analysis) source(cmds []Command, i int, writer string, join func(string) string, depth int) {
	c := cmds[i]
	if len(c.Args) > 2 && strings.HasPrefix(c.Args[0].Text, "$") && isAssign(c.Args[1].Text) {
		c.Args = c.Args[2:] // $x = gci ...: the command
	}
	name := c.Name()
	subtree := !contentOnly(Command{Args: []Word{{Text: writer}}}.Name())
	unknown := func(why string) {
		a.Unknown = append(a.Unknown, fmt.Sprintf("%s takes the paths it changes from %s, which %s", writer, c.Args[0].Text, why))
	}
	if len(c.Args) == 0 || depth > MaxDepth {
		unknown("this reader cannot follow")
		return
	}
	if c.Args[0].Quoted || c.Args[0].Literal && strings.Contains(c.Args[0].Text, ",") && len(c.Args) == 1 {
		// Literal values: 'a.txt', 'b.txt' | Remove-Item.
		for _, w := range c.Args {
			if !w.Literal {
				unknown("is computed at run time")
				return
			}
			for _, part := range strings.Split(w.Text, ",") {
				if part = strings.TrimSpace(part); part != "" {
					a.Trees = append(a.Trees, Tree{Path: join(part), Subtree: subtree})
				}
			}
		}
		return
	}
	switch name {
	case "where-object", "where", "?", "select-object", "select", "sort-object", "sort", "get-unique", "gu", "write-output", "echo", "write", "tee-object", "tee":
		if c.From >= 0 {
			a.source(cmds, c.From, writer, join, depth+1)
			return
		}
		unknown("has no input this reader can see")
	case "get-childitem", "gci", "ls", "dir", "get-item", "gi", "resolve-path", "rvpa":
		t := Tree{Children: name != "get-item" && name != "gi" && name != "resolve-path" && name != "rvpa", Subtree: subtree}
		var paths []string
		pos := 0
		args := c.Args[1:]
		for j := 0; j < len(args); j++ {
			w := args[j]
			if strings.HasPrefix(w.Text, "-") && w.Literal && len(w.Text) > 1 {
				param, value, hasValue := strings.Cut(strings.ToLower(w.Text[1:]), ":")
				switch {
				case strings.HasPrefix("recurse", param), param == "depth":
					t.Recurse = true
					if param == "depth" && !hasValue {
						j++
					}
				case strings.HasPrefix("force", param), strings.HasPrefix("file", param) && len(param) >= 2, strings.HasPrefix("directory", param) && len(param) >= 2,
					strings.HasPrefix("hidden", param), strings.HasPrefix("system", param), strings.HasPrefix("readonly", param), strings.HasPrefix("followsymlink", param) && len(param) >= 2:
				case strings.HasPrefix("name", param) && len(param) >= 2:
					// Names relative to the listed directory, which a
					// writer resolves in its own: both are reached.
					paths = append(paths, ".")
				case strings.HasPrefix("path", param) || strings.HasPrefix("literalpath", param), strings.HasPrefix("filter", param) && len(param) >= 2, strings.HasPrefix("include", param) && len(param) >= 2, strings.HasPrefix("exclude", param) && len(param) >= 2:
					v := Word{Text: value, Literal: true}
					if !hasValue {
						if j+1 >= len(args) {
							break
						}
						j++
						v = args[j]
					}
					if !v.Literal {
						unknown("lists paths computed at run time")
						return
					}
					switch {
					case strings.HasPrefix("filter", param):
						t.Names = append(t.Names, v.Text)
					case strings.HasPrefix("include", param):
						if !strings.Contains(v.Text, ",") {
							t.Names = append(t.Names, v.Text)
						}
					case strings.HasPrefix("exclude", param):
					default:
						paths = append(paths, strings.Split(v.Text, ",")...)
					}
				default:
					unknown("is called with " + w.Text + ", which this reader does not know")
					return
				}
				continue
			}
			if !w.Literal {
				unknown("lists paths computed at run time")
				return
			}
			switch {
			case pos == 0:
				paths = append(paths, strings.Split(w.Text, ",")...)
			case pos == 1 && t.Children:
				t.Names = append(t.Names, w.Text) // Get-ChildItem's second position is -Filter
			}
			pos++
		}
		if len(paths) == 0 {
			paths = []string{"."}
		}
		for _, p := range paths {
			if p = strings.TrimSpace(p); p != "" {
				tt := t
				tt.Path = join(p)
				a.Trees = append(a.Trees, tt)
			}
		}
	default:
		unknown("this reader cannot follow")
	}
}

// Nested returns the script a pwsh or powershell command runs from its
// -Command (the rest of its words) or -EncodedCommand (base64 of UTF-16LE
// text), when every word of it is literal.
func Nested(c Command) (string, bool) {
	args := c.Args
	if n := c.Name(); (n == "&" || n == ".") && len(args) > 1 {
		args = args[1:]
	}
	if n := (Command{Args: args}).Name(); n != "pwsh" && n != "powershell" {
		return "", false
	}
	for i := 1; i < len(args); i++ {
		w := args[i]
		if !w.Literal {
			return "", false
		}
		v := strings.ToLower(w.Text)
		if !strings.HasPrefix(v, "-") || i+1 >= len(args) {
			continue
		}
		opt := v[1:]
		switch {
		case opt == "c" || opt == "co" || opt == "com" || strings.HasPrefix("command", opt) && len(opt) >= 3:
			var parts []string
			for _, r := range args[i+1:] {
				if !r.Literal {
					return "", false
				}
				parts = append(parts, r.Text)
			}
			return strings.Join(parts, " "), true
		case opt == "e" || opt == "ec" || strings.HasPrefix("encodedcommand", opt) && len(opt) >= 2:
			if !args[i+1].Literal {
				return "", false
			}
			return decodeUTF16Base64(args[i+1].Text)
		case opt == "f" || strings.HasPrefix("file", opt) && len(opt) >= 2:
			return "", false // a script file: opaque
		}
	}
	return "", false
}

// decodeUTF16Base64 decodes -EncodedCommand's text.
func decodeUTF16Base64(s string) (string, bool) {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(data)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}

// contentOnly reports a writer that changes what is in the files it is
// given, never what is below a directory.
func contentOnly(writer string) bool {
	switch writer {
	case "set-content", "add-content", "clear-content", "ac", "clc", "out-file", "set-itemproperty", "sp":
		return true
	}
	return false
}

func isAssign(op string) bool {
	switch op {
	case "=", "+=", "-=", "*=", "/=", "%=", "??=":
		return true
	}
	return false
}

func gitOp(args []Word, dir string, dirKnown bool, join func(string) string) (Git, bool) {
	g := Git{Dir: dir, DirUnknown: !dirKnown}
	seenC := false
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		switch {
		case a == "-C" && i+1 < len(args):
			i++
			if !args[i].Literal {
				g.DirUnknown = true
			} else {
				// A later -C is relative to the one before it, as in git.
				if seenC && !filepath.IsAbs(args[i].Text) {
					g.Dir = filepath.Join(g.Dir, args[i].Text)
				} else {
					g.Dir = filepath.Clean(join(args[i].Text))
				}
				seenC = true
			}
		case a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		case !args[i].Literal:
			return Git{Op: "commit or push", Dir: g.Dir, DirUnknown: true}, true
		default:
			if a == "commit" || a == "push" {
				g.Op = a
				return g, true
			}
			return Git{}, false
		}
	}
	return Git{}, false
}

// writers lists the cmdlets (and aliases) that change files: the named
// parameters that name a written file, and which positional arguments do.
func writers(name string) (params []string, positions []int, ok bool) {
	switch name {
	case "set-content", "sc", "add-content", "clear-content", "ac", "clc", "out-file", "tee-object", "tee",
		"mkdir", "md", "remove-item", "ri", "rm", "rmdir", "rd", "del", "erase",
		"export-csv", "export-clixml", "set-itemproperty", "sp":
		return []string{"path", "literalpath", "filepath"}, []int{0}, true
	case "new-item", "ni":
		// A link's -Target (or -Value) is written too: a hard link is the
		// same file, a symbolic one a way to it.
		return []string{"path", "literalpath", "target", "value"}, []int{0}, true
	case "copy-item", "cpi", "cp", "copy":
		return []string{"destination"}, []int{1}, true
	case "move-item", "mi", "mv", "move":
		return []string{"path", "literalpath", "destination"}, []int{0, 1}, true
	case "rename-item", "rni", "ren":
		return []string{"path", "literalpath", "newname"}, []int{0, 1}, true
	}
	return nil, nil, false
}

// switches are the parameters of the writers that take no value.
func isSwitch(param string) bool {
	for _, s := range []string{"force", "recurse", "append", "noclobber", "nonewline", "passthru", "whatif", "confirm", "asbytestream", "container"} {
		if strings.HasPrefix(s, param) {
			return true
		}
	}
	return false
}

// written is what a writing cmdlet's arguments say it writes.
type written struct {
	paths []string
	// groups are the (...) arguments in its path parameters, whose
	// output is the paths (indexes of their last command).
	groups []int
	// fromPipe: no path parameter is given, so the paths come from the
	// pipeline (Get-ChildItem | Remove-Item).
	fromPipe bool
}

func writes(name string, args []Word, join func(string) string, getenv func(string) string) written {
	var out written
	params, positions, ok := writers(name)
	if !ok {
		return out
	}
	pathGiven := false
	add := func(w Word, isPath bool) {
		if isPath {
			pathGiven = true
		}
		if !w.Literal && w.Inner < 0 {
			if v, ok := ExpandEnv(w.Text, getenv); ok {
				w = Word{Text: v, Literal: true, Inner: -1}
			}
		}
		switch {
		case w.Inner >= 0:
			out.groups = append(out.groups, w.Inner)
		case !w.Literal:
			out.paths = append(out.paths, "$("+w.Text+")")
		case w.Text != "":
			for _, part := range strings.Split(w.Text, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out.paths = append(out.paths, join(part))
				}
			}
		}
	}
	pos := 0
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		if strings.HasPrefix(a, "-") && len(a) > 1 && args[i].Literal {
			param, value, hasValue := strings.Cut(a[1:], ":")
			param = strings.ToLower(param)
			named, isPath := false, false
			for _, p := range params {
				if strings.HasPrefix(p, param) {
					named = true
					isPath = isPath || p == "path" || p == "literalpath" || p == "filepath"
				}
			}
			isPath = isPath || strings.HasPrefix("path", param) || strings.HasPrefix("literalpath", param)
			switch {
			case hasValue:
				if named {
					add(Word{Text: value, Literal: true, Inner: -1}, isPath)
				} else if isPath {
					pathGiven = true
				}
			case isSwitch(param):
			case i+1 < len(args):
				i++
				if named {
					add(args[i], isPath)
				} else if isPath {
					pathGiven = true
				}
			}
			continue
		}
		if pos == 0 {
			pathGiven = true
		}
		for _, want := range positions {
			if pos == want {
				add(args[i], pos == 0)
			}
		}
		if !strings.HasSuffix(a, ",") && (i+1 >= len(args) || !strings.HasPrefix(args[i+1].Text, ",")) {
			pos++ // "a, b" is one argument: an array
		}
	}
	out.fromPipe = !pathGiven && takesPipedPaths(name)
	return out
}

// takesPipedPaths reports a writing cmdlet that binds the paths it changes
// from its pipeline input when none is given.
func takesPipedPaths(name string) bool {
	switch name {
	case "out-file", "tee-object", "tee", "export-csv", "export-clixml":
		return false // the pipeline is what they write, not where
	case "copy-item", "cpi", "cp", "copy":
		return false // the pipeline gives the sources, which stay
	}
	return true
}

// firstPath is a location cmdlet's target: its -Path or -LiteralPath, or
// its first positional argument.
func firstPath(args []Word, params ...string) (Word, bool) {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Text)
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, p := range params {
				if strings.HasPrefix(p, a[1:]) && i+1 < len(args) {
					return args[i+1], true
				}
			}
			i++
			continue
		}
		return args[i], true
	}
	return Word{}, false
}
