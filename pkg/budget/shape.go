package budget

import (
	"fmt"
	"strings"
)

// The shape limits: what a command or a path may hold before any analysis
// (the shell parser, the walker, a path resolution) takes it on. A parser
// recurses once per level of nesting and the analysis walks a command
// substitution again at each level it is nested in, so a few kilobytes
// of `$(` or `(` cost seconds and hundreds of megabytes, and enough of
// them overflow the goroutine's stack. Ordinary commands stay far below
// each limit: an agent's command nests a handful of levels and pipes a
// handful of stages.
const (
	// MaxNesting bounds the levels of nesting of a command: subshells,
	// groups, command and process substitutions, arithmetic, and
	// compound commands (if, for, while, until, case, select).
	MaxNesting = 64
	// MaxSubstitutions bounds the command substitutions nested in one
	// another ($(...), `...`, <(...), >(...)): the analysis's cost grows
	// about threefold with each.
	MaxSubstitutions = 8
	// MaxPipeline bounds the commands of one pipeline.
	MaxPipeline = 128
	// MaxPathComponents bounds the components of a path a tool call
	// names (four times what a PATH_MAX of 4096 bytes holds, at two bytes
	// a component, would be needed to reach it).
	MaxPathComponents = 1024
	// MaxCallComponents bounds the components of all the paths one tool
	// call's arguments name together (an MCP tool's paths array): each
	// is resolved by every gate, a system call per component.
	MaxCallComponents = 16 * MaxPathComponents
	// MaxCommandComponents bounds the path separators of one shell
	// command: every path it writes is resolved by each gate, and 100
	// redirections into paths of 1,000 components cost 2.3 s of CPU.
	MaxCommandComponents = 32 * MaxPathComponents
)

// Shape is what a pre-scan found over a limit: the reason a gate does not
// analyse an input. It wraps ErrExceeded.
type Shape struct {
	What   string // "the command", "the path of Write"
	Detail string // "nests more than 64 levels deep"
}

func (s *Shape) Error() string {
	return fmt.Sprintf("%v: %s %s; split it into simpler calls", ErrExceeded, s.What, s.Detail)
}

func (s *Shape) Unwrap() error { return ErrExceeded }

// CheckPath returns a *Shape when path has more than MaxPathComponents
// components. It reads path once and allocates nothing on success.
func CheckPath(what, path string) error {
	n := 0
	for i := 0; i < len(path); i++ {
		if path[i] == '/' || path[i] == '\\' {
			n++
		}
	}
	if n+1 > MaxPathComponents {
		return &Shape{What: what, Detail: fmt.Sprintf("has %d components, over the %d a gate resolves", n+1, MaxPathComponents)}
	}
	return nil
}

// CheckPaths is CheckPath for each of the paths one call names (each
// names one in the error), and bounds their components together by
// MaxCallComponents (all names them together).
func CheckPaths(each, all string, paths []string) error {
	total := 0
	for _, p := range paths {
		if err := CheckPath(each, p); err != nil {
			return err
		}
		total += strings.Count(p, "/") + strings.Count(p, `\`) + 1
	}
	if total > MaxCallComponents {
		return &Shape{What: all, Detail: fmt.Sprintf("have %d components together, over the %d a gate resolves for one call", total, MaxCallComponents)}
	}
	return nil
}

// CheckSeparators returns a *Shape when a command holds more path
// separators ('/' and '\\') than MaxCommandComponents.
func CheckSeparators(what, src string) error {
	if n := strings.Count(src, "/") + strings.Count(src, `\`); n > MaxCommandComponents {
		return &Shape{What: what, Detail: fmt.Sprintf("holds %d path separators, over the %d a gate resolves for one call", n, MaxCommandComponents)}
	}
	return nil
}

// frame kinds of the shell scan's stack.
const (
	framePlain   = iota // ( ) { } (( )): nesting alone
	frameSubst          // $( ) <( ) >( ): a command substitution
	frameTick           // ` `: a command substitution
	frameKeyword        // if/fi, for|while|until|select/done, case/esac
)

// frame is one level of the scan: its kind, the pipes of its current
// pipeline, the substitutions it is nested in, and the double quotes of
// the level around it (a substitution starts its own quoting).
type frame struct {
	kind    uint8
	subst   uint8
	pipes   uint16
	inDQ    bool
	dqStart int
}

// maxQuoteLevels bounds how deep CheckShell looks into quoted text and
// here-documents as code of their own (bash -c '...', eval "...", a
// script fed to sh <<'EOF'), each level a shorter text.
const maxQuoteLevels = 4

// CheckShell returns a *Shape when a bash command nests deeper than
// MaxNesting, nests command substitutions deeper than MaxSubstitutions,
// or has a pipeline of more than MaxPipeline commands. The text of every
// quoted string and here-document is checked the same way, as the code it
// may become (bash -c, eval, sh <<EOF). It is a pass over the text aware
// of quotes, escapes, comments and here-documents that allocates nothing
// on success; it does not check syntax (the parser does), and an
// unbalanced text only ever counts as deeper.
func CheckShell(what, src string) error {
	return scanShell(what, src, 0)
}

func scanShell(what, src string, level int) error {
	if level > maxQuoteLevels {
		return nil
	}
	var stack [MaxNesting + 2]frame
	depth := 0
	top := &stack[0]
	inSQ, inANSI, inDQ := false, false, false
	sqStart, dqStart := 0, 0
	wordStart := true  // the next byte starts a word
	afterPipe := false // a newline here continues the pipeline
	var heredocs [8]struct {
		delim string
		strip bool // <<-: leading tabs
	}
	pending := 0
	push := func(kind uint8) error {
		depth++
		if depth > MaxNesting {
			return &Shape{What: what, Detail: fmt.Sprintf("nests more than %d levels deep (subshells, groups, substitutions, compound commands)", MaxNesting)}
		}
		subst := top.subst
		if kind == frameSubst || kind == frameTick {
			subst++
			if subst > MaxSubstitutions {
				return &Shape{What: what, Detail: fmt.Sprintf("nests command substitutions more than %d deep", MaxSubstitutions)}
			}
		}
		stack[depth] = frame{kind: kind, subst: subst, inDQ: inDQ, dqStart: dqStart}
		top = &stack[depth]
		inDQ = false
		return nil
	}
	pop := func(a, b uint8) {
		if depth > 0 && (top.kind == a || top.kind == b) {
			inDQ, dqStart = top.inDQ, top.dqStart
			depth--
			top = &stack[depth]
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inSQ || inANSI {
			switch {
			case inANSI && c == '\\':
				i++
			case c == '\'':
				inSQ, inANSI = false, false
				if err := scanShell(what, src[sqStart:i], level+1); err != nil {
					return err
				}
			}
			continue
		}
		word := wordStart
		wordStart = false
		pipe := afterPipe
		if !isBlank(c) {
			afterPipe = false
		}
		switch {
		case c == '\\':
			i++
		case c == '\'' && !inDQ:
			inSQ, sqStart = true, i+1
		case c == '$' && !inDQ && i+1 < len(src) && src[i+1] == '\'':
			i++
			inANSI, sqStart = true, i+1
		case c == '"':
			if inDQ {
				if err := scanShell(what, src[dqStart:i], level+1); err != nil {
					return err
				}
			}
			inDQ, dqStart = !inDQ, i+1
		case c == '$' && i+1 < len(src) && src[i+1] == '(':
			i++
			kind := uint8(frameSubst)
			if i+1 < len(src) && src[i+1] == '(' {
				kind = framePlain // $(( )): arithmetic
			}
			if err := push(kind); err != nil {
				return err
			}
			wordStart = true
		case c == '`':
			if depth > 0 && top.kind == frameTick {
				pop(frameTick, frameTick)
			} else if err := push(frameTick); err != nil {
				return err
			}
			wordStart = true
		case inDQ:
			// Within double quotes only $( and ` open a level.
		case (c == '<' || c == '>') && i+1 < len(src) && src[i+1] == '(':
			i++
			if err := push(frameSubst); err != nil {
				return err
			}
			wordStart = true
		case c == '(':
			if err := push(framePlain); err != nil {
				return err
			}
			wordStart = true
		case c == ')':
			pop(framePlain, frameSubst)
			wordStart = true
		case c == '{' && word && (i+1 == len(src) || isBlank(src[i+1]) || src[i+1] == '\n'):
			if err := push(framePlain); err != nil {
				return err
			}
			wordStart = true
		case c == '}' && word:
			pop(framePlain, framePlain)
		case c == '#' && word:
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '|':
			if i+1 < len(src) && src[i+1] == '|' {
				i++
				top.pipes = 0
			} else if top.pipes++; int(top.pipes)+1 > MaxPipeline {
				return &Shape{What: what, Detail: fmt.Sprintf("has a pipeline of more than %d commands", MaxPipeline)}
			} else {
				afterPipe = true
			}
			wordStart = true
		case c == ';' || c == '&':
			top.pipes = 0
			wordStart = true
		case c == '\n':
			if !pipe {
				top.pipes = 0
			}
			wordStart = true
			// The bodies of the here-documents this line opened, each
			// checked as the code it may be.
			j := i + 1
			for h := 0; h < pending; h++ {
				body := j
				for j < len(src) {
					end := strings.IndexByte(src[j:], '\n')
					line := src[j:]
					if end >= 0 {
						line = src[j : j+end]
					}
					next := len(src)
					if end >= 0 {
						next = j + end + 1
					}
					text := line
					if heredocs[h].strip {
						text = strings.TrimLeft(text, "\t")
					}
					if text == heredocs[h].delim {
						if err := scanShell(what, src[body:j], level+1); err != nil {
							return err
						}
						j = next
						body = -1
						break
					}
					j = next
				}
				if body >= 0 { // no end line: the body runs to the end
					if err := scanShell(what, src[body:], level+1); err != nil {
						return err
					}
				}
			}
			i = j - 1
			pending = 0
		case c == '<' && i+1 < len(src) && src[i+1] == '<' && (i+2 >= len(src) || src[i+2] != '<'):
			i += 2
			strip := i < len(src) && src[i] == '-'
			if strip {
				i++
			}
			for i < len(src) && isBlank(src[i]) {
				i++
			}
			start, quoted := i, false
			for i < len(src) && !isMeta(src[i]) {
				switch src[i] {
				case '\'', '"':
					quoted = true
					if end := strings.IndexByte(src[i+1:], src[i]); end >= 0 {
						i += end + 1
					} else {
						i = len(src) - 1
					}
				case '\\':
					quoted = true
					i++
				}
				i++
			}
			if pending == len(heredocs) {
				return &Shape{What: what, Detail: fmt.Sprintf("opens more than %d here-documents on one line", len(heredocs))}
			}
			delim := src[start:min(i, len(src))]
			if quoted {
				delim = strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(delim)
			}
			heredocs[pending].delim, heredocs[pending].strip = delim, strip
			pending++
			i--
		case isBlank(c):
			wordStart = true
		case word && isWordByte(c):
			// A reserved word opens or closes a compound command.
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			switch src[i:j] {
			case "if", "for", "while", "until", "case", "select":
				if err := push(frameKeyword); err != nil {
					return err
				}
			case "fi", "done", "esac":
				pop(frameKeyword, frameKeyword)
			}
			i = j - 1
		}
	}
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isMeta reports a byte that ends an unquoted word.
func isMeta(c byte) bool {
	return isBlank(c) || c == '\n' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == '(' || c == ')'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/'
}

// CheckPowerShell is CheckShell for a PowerShell command: nesting of
// ( ) { } [ ] (subexpressions, script blocks and groups, quoted or not,
// since a string can become code) bounded by MaxNesting, and pipelines by
// MaxPipeline. It allocates nothing on success.
func CheckPowerShell(what, src string) error {
	depth, pipes := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '`':
			i++ // PowerShell's escape
		case '(', '{', '[':
			if depth++; depth > MaxNesting {
				return &Shape{What: what, Detail: fmt.Sprintf("nests more than %d levels deep (subexpressions, script blocks, groups)", MaxNesting)}
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		case '|':
			if i+1 < len(src) && src[i+1] == '|' {
				i++
				pipes = 0
			} else if pipes++; pipes+1 > MaxPipeline {
				return &Shape{What: what, Detail: fmt.Sprintf("has a pipeline of more than %d commands", MaxPipeline)}
			}
		case ';', '\n', '&':
			pipes = 0
		}
	}
	return nil
}
