// Package pwsh reads PowerShell's surface syntax, for the shell model
// (pkg/gitcmd reads it into the same analysis as Bash's: Claude Code's
// PowerShell tool and Copilot's powershell tool are gated like Bash).
//
// It is a reader, not an interpreter. It splits a script into commands
// (at ";", newlines, "|", "&&", "||" and a trailing "&"), reads quoted
// strings ('...' with a doubled quote as an escape, "..." and
// here-strings, backtick escapes), comments (# and <# #>), redirections,
// the call operators & and ., and reads the inside of every group ((...),
// $(...), @(...) and {...} script blocks) as commands that may run too. A
// word is literal when nothing in it is computed at run time (a variable,
// a subexpression). Nested returns the script pwsh -Command and
// -EncodedCommand run; ExpandEnv reads $env:NAME and $HOME from the
// starting environment; Opaque names what no reader can see into (a .NET
// call, a computed command name).
package pwsh

import (
	"encoding/base64"
	"errors"
	"strings"
	"unicode/utf16"
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
