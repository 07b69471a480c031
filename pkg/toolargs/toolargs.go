// Package toolargs reads what a tool call the gates have no special
// knowledge of may touch: the paths its arguments name, and whether the
// tool only reads.
//
// The gates know a few tools by heart (Edit, MultiEdit, Write,
// NotebookEdit, the shells, apply_patch). Every other tool, an MCP tool
// (mcp__<server>__<tool>) or another client's own (Qwen's write_file,
// Droid's Create), is judged by its arguments: an argument whose name says
// it holds a path (path, file_path, paths, source, destination, target,
// dir, cwd, ...; the suffixes _path, _file, _dir, Path, File, Dir), at any
// depth and in arrays, and any other string argument that is an absolute
// path, a ~/ path or a file:// URI. A tool is read-only when it is a known
// reader (Read, Glob, Grep, the filesystem server's read_file, ...), when
// the client's MCP annotations say so (readOnlyHint true, destructiveHint
// not true), or when its name reads as a query (read_, get_, list_,
// search_, find_, view_, show_, describe_...) and holds no word of a
// change (write, edit, create, delete, move, set, run, ...). Every other
// tool that names a path is taken to write it: a gate that cannot tell
// fails closed.
//
// A tool whose input holds a shell command (Qwen's run_shell_command,
// Droid's Execute, an MCP tool with a command argument) is a shell
// (Shell), judged as Bash is.
package toolargs

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/payload"
)

// Known reports the tools the gates judge by their own rules: the
// file-writing tools and the shells. Of reports nothing for them.
func Known(tool string) bool {
	switch tool {
	case "Edit", "MultiEdit", "Write", "NotebookEdit", "Bash", "PowerShell", "apply_patch":
		return true
	}
	return false
}

// Call is what a tool call's arguments name.
type Call struct {
	// Tool is the tool's name; Server the MCP server's, for an MCP tool.
	Tool, Server string
	// ReadOnly: the tool only reads (a known reader, an annotation, or a
	// query's name).
	ReadOnly bool
	// Paths are the paths the arguments name, as written (a file:// URI
	// made a path, ~/ made the home); none are read for a reader unless
	// Options.Readers asks.
	Paths []Path
}

// Path is one path an argument names.
type Path struct {
	Arg, Value string
}

// Limits on the walk of tool_input: a hostile payload's depth and width
// cost nothing past them (the rest is not read, and a gate that needs
// more fails closed on what it has).
const (
	maxDepth = 16
	maxPaths = 256
)

// Options say what Read gathers beyond Of's paths.
type Options struct {
	// Home replaces a leading ~/.
	Home string
	// Readers: the paths of a read-only tool too (a gate on reads,
	// secretguard, asks about them).
	Readers bool
	// Relative: also a relative path by its shape (no whitespace, and a
	// '/', a leading '.' or a file extension) in an argument whose name
	// says neither path nor text. Loose, for the gates that match the
	// paths they find against their own globs (pathguard, secretguard),
	// not for those that take every path for a write (a branch name
	// such as feature/x would be one).
	Relative bool
}

// Of reads a tool call that is not Known; home replaces a leading ~/.
func Of(p *payload.Payload, home string) Call { return Read(p, Options{Home: home}) }

// Read is Of with options.
func Read(p *payload.Payload, o Options) Call {
	c := Call{Tool: p.ToolName}
	if Known(p.ToolName) {
		return c
	}
	name := p.ToolName
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		server, tool, found := strings.Cut(rest, "__")
		if found {
			c.Server, name = server, tool
		}
	}
	c.ReadOnly = readOnly(p, c.Server, name)
	if c.ReadOnly && !o.Readers {
		return c // what a reader names, no gate here asks about
	}
	var v any
	if len(p.ToolInput) > 0 && json.Unmarshal(p.ToolInput, &v) == nil {
		walk(&c, "", v, 0, o)
	}
	return c
}

// Shell returns the command of a tool that runs one in a shell (a client's
// own shell tool, an MCP tool with a command argument), and false for
// every other tool (Bash and PowerShell are Known).
func Shell(p *payload.Payload) (string, bool) {
	if Known(p.ToolName) {
		return "", false
	}
	switch p.ToolName {
	case "run_shell_command", "Execute", "shell", "local_shell", "exec_command", "execute_command", "run_terminal_cmd", "run_command", "bash", "terminal":
	default:
		if !strings.HasPrefix(p.ToolName, "mcp__") {
			return "", false
		}
	}
	for _, f := range []string{"command", "cmd", "script"} {
		if s, ok := p.InputString(f); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// readers are the tools known to only read: Claude Code's, Qwen Code's,
// Factory Droid's, Gemini CLI's, and the MCP filesystem server's.
func reader(tool string) bool {
	switch tool {
	case "Read", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "Agent", "Task", "TodoWrite", "TodoRead",
		"ExitPlanMode", "BashOutput", "KillShell", "ListMcpResourcesTool", "ReadMcpResourceTool", "Skill",
		"SlashCommand", "AskUserQuestion",
		"read_file", "read_many_files", "read_text_file", "read_media_file", "read_multiple_files",
		"list_directory", "list_directory_with_sizes", "directory_tree", "search_files", "get_file_info",
		"list_allowed_directories", "grep_search", "glob", "web_fetch", "google_web_search", "search_file_content":
		return true
	}
	return false
}

func readOnly(p *payload.Payload, server, tool string) bool {
	if server == "" && reader(p.ToolName) {
		return true
	}
	if server != "" && knownServer(server) && reader(tool) {
		return true
	}
	// The client's MCP annotations, where it passes them.
	for _, field := range []string{"tool_annotations", "annotations", "mcp_tool_annotations"} {
		raw := p.Field(field)
		if len(raw) == 0 {
			continue
		}
		var a struct {
			ReadOnly    *bool `json:"readOnlyHint"`
			Destructive *bool `json:"destructiveHint"`
		}
		if json.Unmarshal(raw, &a) == nil && a.ReadOnly != nil {
			return *a.ReadOnly && (a.Destructive == nil || !*a.Destructive)
		}
	}
	return query(tool)
}

// knownServer reports an MCP server whose read-only tools are known by
// name: the reference filesystem server, however the user named it.
func knownServer(name string) bool {
	switch strings.ToLower(name) {
	case "fs", "filesystem", "file-system", "files", "server-filesystem":
		return true
	}
	return false
}

// query reports a tool name that reads as a question and holds no word
// of a change.
func query(tool string) bool {
	words := strings.FieldsFunc(camelToSnake(tool), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "read", "get", "list", "search", "find", "view", "show", "describe", "lookup", "query", "stat", "inspect", "count", "diff", "status", "grep", "glob", "ls", "cat", "head", "tail", "preview", "check", "validate", "lint", "explain", "fetch":
	default:
		return false
	}
	for _, w := range words {
		switch w {
		case "write", "edit", "create", "delete", "remove", "rm", "move", "mv", "rename", "copy", "cp", "set", "put", "update", "upsert", "replace", "insert", "append", "apply", "patch", "save", "run", "exec", "execute", "shell", "commit", "push", "merge", "reset", "checkout", "mkdir", "touch", "chmod", "install", "make", "or", "and", "then", "modify", "change", "truncate", "drop", "kill", "restore", "revert", "upload", "download", "sync", "import", "generate", "format", "fix":
			return false
		}
	}
	return true
}

func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pathName reports an argument name that says it holds a path.
func pathName(name string) bool {
	n := strings.ToLower(camelToSnake(name))
	switch n {
	case "path", "paths", "file", "files", "filepath", "filename", "file_name", "notebook_path", "source", "sources",
		"destination", "destinations", "target", "targets", "dest", "dst", "src", "from", "to", "dir", "dirs",
		"directory", "directories", "cwd", "root", "workdir", "working_directory", "location", "folder", "output",
		"out", "uri", "uris", "old_path", "new_path", "relative_path", "target_file", "absolute_path", "filenames":
		return true
	}
	for _, suf := range []string{"_path", "_paths", "_file", "_files", "_dir", "_dirs", "_directory", "_folder", "_uri"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// textName reports an argument that holds text, never a path to judge
// by its shape (a file's content that starts with a slash).
func textName(name string) bool {
	switch strings.ToLower(name) {
	case "content", "contents", "text", "old_string", "new_string", "old_str", "new_str", "oldtext", "newtext",
		"old_text", "new_text", "pattern", "query", "description", "summary", "prompt", "message", "body",
		"command", "cmd", "script", "code", "input", "edits":
		return true
	}
	return false
}

func walk(c *Call, name string, v any, depth int, o Options) {
	if depth > maxDepth || len(c.Paths) >= maxPaths {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			walk(c, k, x, depth+1, o)
		}
	case []any:
		for _, x := range t {
			walk(c, name, x, depth+1, o)
		}
	case string:
		if t == "" || strings.ContainsAny(t, "\n\x00") {
			return
		}
		if named := pathName(name); named || !textName(name) && (shaped(t) || o.Relative && relative(t)) {
			if p, ok := asPath(t, o.Home); ok {
				c.Paths = append(c.Paths, Path{Arg: name, Value: p})
			}
		}
	}
}

// shaped reports a string that is a path by its shape alone.
func shaped(s string) bool {
	return filepath.IsAbs(s) || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "file://")
}

// relative reports a string that reads as a relative path: one word of
// at most 4096 bytes with a '/', a leading '.' or a file extension, and no
// URI scheme.
func relative(s string) bool {
	if len(s) > 4096 || strings.ContainsAny(s, " \t\r") || strings.Contains(s, "://") {
		return false
	}
	return strings.Contains(s, "/") || strings.HasPrefix(s, ".") || filepath.Ext(s) != ""
}

// fileURIPath is the path of a file:// URI: what follows its authority,
// up to a query or fragment, percent-decoded (RFC 8089). An escape that is
// not two hex digits, or a control character, makes it no URI. (net/url
// would do it, but linking it runs net/netip's init on every hook call.)
func fileURIPath(s string) (string, bool) {
	rest := strings.TrimPrefix(s, "file://")
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return "", true
	}
	p := rest[slash:]
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if !strings.ContainsRune(p, '%') {
		return p, !strings.ContainsFunc(s, isCTL)
	}
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			b = append(b, p[i])
			continue
		}
		if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
			return "", false
		}
		b = append(b, unhex(p[i+1])<<4|unhex(p[i+2]))
		i += 2
	}
	return string(b), !strings.ContainsFunc(s, isCTL)
}

func isCTL(r rune) bool { return r < 0x20 || r == 0x7f }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// asPath turns an argument into a path: a file:// URI's path, ~/ the
// home; a URI of another scheme is no path.
func asPath(s, home string) (string, bool) {
	if strings.HasPrefix(s, "file://") {
		p, ok := fileURIPath(s)
		if !ok || p == "" {
			return "", false
		}
		return filepath.FromSlash(p), true
	}
	if i := strings.Index(s, "://"); i > 0 && !strings.ContainsAny(s[:i], `/\`) {
		return "", false
	}
	if strings.HasPrefix(s, "~/") && home != "" {
		return filepath.Join(home, s[2:]), true
	}
	return s, true
}
