package gitcmd

import (
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/pwsh"
)

// What the analysis knows of PowerShell's cmdlets: one spec per cmdlet
// (with its aliases), read by the PowerShell front end (powershell.go) the
// way programTable is read for Bash: which parameters take a value, which
// of them (and which positions) name files it writes, deletes or reads,
// and what the cmdlet does to the shell (changes its directory, runs
// another command, sets an alias). Each spec carries examples that
// TestCmdletSpecs runs; a native program PowerShell runs (git, rm on
// Linux, python) is read through programTable and git's grammar.

// cmdletRole is what a cmdlet does beyond its parameters' files.
type cmdletRole int

const (
	cmNone        cmdletRole = iota // only what its parameters name
	cmWrite                         // writes the files its path parameters name
	cmDelete                        // deletes them (a directory: the tree)
	cmMove                          // moves them: both ends change, a directory as a tree
	cmCopy                          // copies them: the destination changes
	cmRead                          // prints the files its path parameters name
	cmLocation                      // changes the directory (Set-Location, Push-Location)
	cmPopLocation                   // returns to a pushed directory
	cmAlias                         // Set-Alias NAME VALUE: NAME runs VALUE from here on
	cmEval                          // runs its string as PowerShell (Invoke-Expression)
	cmStart                         // runs a program with its arguments (Start-Process)
	cmList                          // lists files (Get-ChildItem): what a writer fed by it changes
	cmFilter                        // passes its input on, filtered or reordered
)

// cmdletSpec is one cmdlet.
type cmdletSpec struct {
	// names are the cmdlet and its aliases, in lower case.
	names []string
	role  cmdletRole
	// params are the parameters (lower case, without '-') that take a
	// value; any unambiguous prefix names one, as PowerShell binds them.
	// switches are those without a value. "a=name" entries are the
	// abbreviations PowerShell binds despite another parameter sharing
	// the prefix (gci -r is -Recurse). A parameter the spec does not
	// list makes the command one PowerShell refuses (or, for an alias
	// that is also a Unix program, the program: rm -rf on Linux).
	params, switches []string
	// paths are the parameters whose values name the files of the role;
	// positions the positional arguments that do (0 is the first).
	paths     []string
	positions []int
	// dest is the destination parameter of a copy or move (position 1).
	dest string
	// contentOnly: it changes what is in a file, never what is below a
	// directory (Set-Content, Out-File).
	contentOnly bool
	// piped: with no path given, it takes the paths it changes from its
	// pipeline (gci | Remove-Item).
	piped bool
	// recurse is the switch that makes its paths trees (-Recurse).
	recurse string
	// as is the program that does what the cmdlet does (rm for
	// Remove-Item), asFlags its switches as that program's options
	// ("recurse=-r"): Command.Equivalent, so that a rule about rm -rf
	// reads Remove-Item -Recurse -Force the same.
	as      string
	asFlags []string

	examples []example
}

// Parameters many cmdlets share.
var (
	commonSwitches = []string{"whatif", "confirm", "verbose", "debug"}
	commonParams   = []string{"erroraction", "warningaction", "informationaction", "errorvariable", "warningvariable", "informationvariable",
		"outvariable", "outbuffer", "pipelinevariable"}
)

// cmdletTable is every cmdlet the analysis knows.
var cmdletTable = [...]cmdletSpec{
	{names: []string{"set-content", "sc", "add-content", "ac"}, role: cmWrite, contentOnly: true, piped: true,
		switches: []string{"force", "nonewline", "passthru", "asbytestream"},
		params:   []string{"path", "literalpath", "value", "encoding", "filter", "include", "exclude", "stream", "credential"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Set-Content .toolingrc x", writes: ".toolingrc"}, {command: "Add-Content -Path a.txt -Value x", writes: "a.txt"},
			{command: "sc -LiteralPath 'a b.txt' x", writes: "a b.txt"}, {command: `Set-Content sub\c.txt x`, writes: "sub/c.txt"}}},
	{names: []string{"clear-content", "clc"}, role: cmWrite, contentOnly: true, piped: true,
		switches: []string{"force"},
		params:   []string{"path", "literalpath"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Clear-Content log.txt", writes: "log.txt"}}},
	{names: []string{"out-file", "tee-object", "tee", "export-csv", "epcsv", "export-clixml"}, role: cmWrite, contentOnly: true,
		switches: []string{"append", "force", "noclobber", "nonewline", "passthru", "notypeinformation", "includetypeinformation", "useculture"},
		params:   []string{"filepath", "literalpath", "path", "inputobject", "width", "variable", "delimiter", "encoding"}, paths: []string{"filepath", "literalpath", "path"}, positions: []int{0},
		examples: []example{{command: "Get-Date | Out-File -FilePath now.txt", writes: "now.txt"}, {command: "'x' | Tee-Object t.log", writes: "t.log"},
			{command: "Get-Process | Export-Csv p.csv", writes: "p.csv"}}},
	{names: []string{"set-itemproperty", "sp"}, role: cmWrite, contentOnly: true, piped: true,
		switches: []string{"force", "passthru"},
		params:   []string{"path", "literalpath", "name", "value", "type"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Set-ItemProperty -Path a.txt -Name IsReadOnly -Value $true", writes: "a.txt"}}},
	{names: []string{"new-item", "ni", "mkdir", "md"}, role: cmWrite,
		switches: []string{"force"},
		params:   []string{"path", "name", "itemtype", "type", "value", "target"}, paths: []string{"path", "target", "value"}, positions: []int{0},
		examples: []example{{command: "New-Item -ItemType File x.txt", writes: "x.txt"}, {command: "New-Item -Path sub -Name f.txt -ItemType File", writes: "sub sub/f.txt"},
			{command: "New-Item -ItemType SymbolicLink -Path l -Target .toolingrc", writes: "l .toolingrc"}, {command: "mkdir build", writes: "build"}}},
	{names: []string{"remove-item", "ri", "rm", "rmdir", "rd", "del", "erase"}, role: cmDelete, piped: true, recurse: "recurse", as: "rm", asFlags: []string{"recurse=-r", "force=-f"},
		switches: []string{"recurse", "force"},
		params:   []string{"path", "literalpath", "filter", "include", "exclude", "stream", "credential"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Remove-Item a.txt", writes: "a.txt"}, {command: "Remove-Item -Recurse -Force .git", writes: "tree:.git"},
			{command: "rm -r -fo build", writes: "tree:build"}, {command: "Remove-Item a.txt, b.txt", writes: "a.txt b.txt"},
			{command: "Get-ChildItem -Recurse -Filter *.json | Remove-Item", writes: "tree:.[*.json]"}, {command: "gci *.log | rm", writes: "tree:*.log"},
			{command: "'a.txt', 'b.txt' | Remove-Item", writes: "a.txt b.txt"}, {command: "$f = gci src -Recurse; Remove-Item $f", writes: "tree:src"},
			{command: "Get-Content list.txt | Remove-Item", reads: "list.txt", writes: "?"}, {command: "Remove-Item $env:NOPE\\x", writes: "?"}}},
	{names: []string{"copy-item", "cpi", "cp", "copy"}, role: cmCopy, recurse: "recurse", dest: "destination", as: "cp", asFlags: []string{"recurse=-r", "force=-f"},
		switches: []string{"recurse", "force", "container", "passthru"},
		params:   []string{"path", "literalpath", "destination", "filter", "include", "exclude", "credential", "tosession", "fromsession"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Copy-Item a.txt b.txt", reads: "a.txt>b.txt", writes: "b.txt"}, {command: "Copy-Item -Path x -Destination .toolingrc", reads: "x>.toolingrc", writes: ".toolingrc"},
			{command: "Copy-Item -Recurse src out", reads: "tree:src>out", writes: "tree:out"}}},
	{names: []string{"move-item", "mi", "mv", "move"}, role: cmMove, piped: true, dest: "destination", as: "mv", asFlags: []string{"force=-f"},
		switches: []string{"force", "passthru"},
		params:   []string{"path", "literalpath", "destination"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Move-Item a.txt b.txt", writes: "tree:a.txt tree:b.txt"}, {command: "mv -Destination old .git", writes: "tree:.git tree:old"}}},
	{names: []string{"rename-item", "rni", "ren"}, role: cmMove, piped: true, dest: "newname",
		switches: []string{"force", "passthru"},
		params:   []string{"path", "literalpath", "newname"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Rename-Item .toolingrc old.rc", writes: "tree:.toolingrc tree:old.rc"}, {command: "Rename-Item sub/a.txt b.txt", writes: "tree:sub/a.txt tree:sub/b.txt"}}},
	{names: []string{"get-content", "gc", "cat", "type", "import-csv", "ipcsv", "import-clixml", "format-hex", "fhx"}, role: cmRead, as: "cat",
		switches: []string{"raw", "wait", "force", "asbytestream"},
		params:   []string{"path", "literalpath", "totalcount", "head", "tail", "first", "last", "readcount", "delimiter", "algorithm", "encoding", "filter", "include", "exclude", "stream"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Get-Content .env", reads: ".env"}, {command: "gc -Path a, b -TotalCount 3", reads: "a b"}, {command: "cat -Raw x.json", reads: "x.json"}}},
	{names: []string{"select-string", "sls"}, role: cmRead,
		switches: []string{"simplematch", "casesensitive", "quiet", "list", "notmatch", "allmatches", "raw"},
		params:   []string{"pattern", "path", "literalpath", "context", "encoding"}, paths: []string{"path", "literalpath"}, positions: []int{1},
		examples: []example{{command: "Select-String -Pattern KEY -Path .env", reads: ".env"}, {command: "sls TODO x.go", reads: "x.go"}}},
	{names: []string{"set-location", "sl", "cd", "chdir", "push-location", "pushd"}, role: cmLocation,
		switches: []string{"passthru"},
		params:   []string{"path", "literalpath", "stackname"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Set-Location /w/sub; Set-Content a.txt x", writes: "a.txt"}, {command: "cd $x; Set-Content a.txt x", writes: "?"}, {command: "Set-Location sub; Set-Content /w/b.txt x", writes: "b.txt"}}},
	{names: []string{"pop-location", "popd"}, role: cmPopLocation, switches: []string{"passthru"},
		params:   []string{"stackname"},
		examples: []example{{command: "Push-Location sub; Pop-Location; Set-Content /w/a x", writes: "a"}, {command: "Pop-Location; Set-Content a x", writes: "?"}}},
	{names: []string{"set-alias", "sal", "new-alias", "nal"}, role: cmAlias, switches: []string{"force", "passthru"},
		params:   []string{"name", "value", "description", "option", "scope"},
		examples: []example{{command: "Set-Alias zap Remove-Item; zap .toolingrc", writes: ".toolingrc"}}},
	{names: []string{"invoke-expression", "iex"}, role: cmEval, params: []string{"command"},
		examples: []example{{command: "Invoke-Expression 'Remove-Item x.txt'", writes: "x.txt", runs: "Remove-Item x.txt"}, {command: "iex $code", writes: "?"}}},
	{names: []string{"start-process", "saps", "start", "start-job", "sajb", "start-threadjob"}, role: cmStart,
		switches: []string{"wait", "nonewwindow", "passthru", "usenewenvironment", "loaduserprofile"},
		params:   []string{"filepath", "argumentlist", "args", "workingdirectory", "verb", "windowstyle", "redirectstandardoutput", "redirectstandarderror", "redirectstandardinput", "scriptblock"},
		paths:    []string{"redirectstandardoutput", "redirectstandarderror"},
		examples: []example{{command: "Start-Process git -ArgumentList 'push','origin','main'", runs: "git push origin main"},
			{command: "Start-Process -FilePath rm -ArgumentList '-rf .git' -Wait", writes: "tree:.git", runs: "rm -rf .git"},
			{command: "Start-Process app -RedirectStandardOutput out.log", writes: "out.log", runs: "app"}}},
	{names: []string{"get-childitem", "gci", "ls", "dir"}, role: cmList,
		switches: []string{"r=recurse", "recurse", "force", "name", "file", "directory", "hidden", "system", "readonly", "followsymlink"},
		params:   []string{"path", "literalpath", "depth", "attributes", "filter", "include", "exclude"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Get-ChildItem -Recurse -Force"}, {command: "gci -r -Filter *.o | Remove-Item", writes: "tree:.[*.o]"},
			{command: "gci -rec | Remove-Item", writes: "tree:."}}},
	{names: []string{"get-item", "gi", "resolve-path", "rvpa"}, role: cmList,
		switches: []string{"force", "relative"},
		params:   []string{"path", "literalpath", "filter", "include", "exclude", "stream", "credential", "relativebasepath"}, paths: []string{"path", "literalpath"}, positions: []int{0},
		examples: []example{{command: "Get-Item .toolingrc | Clear-Content", writes: ".toolingrc"}, {command: "gi .claude | Remove-Item", writes: "tree:.claude"}}},
	{names: []string{"where-object", "where", "?", "select-object", "select", "sort-object", "sort", "get-unique", "gu", "write-output", "echo", "write",
		"foreach-object", "foreach", "%", "format-table", "ft", "format-list", "fl", "out-string", "measure-object", "measure", "out-null", "out-host", "write-host"},
		role: cmFilter, switches: []string{"unique", "descending", "wait", "noenumerate", "like", "match", "eq", "ne", "not"},
		params:   []string{"property", "filterscript", "first", "last", "skip", "inputobject", "expandproperty", "process", "begin", "end"},
		examples: []example{{command: "gci -Recurse | Where-Object { $_.Name -like '*.tmp' } | Remove-Item", writes: "tree:."}}},
	{names: []string{"get-date", "get-location", "gl", "pwd", "get-process", "gps", "ps", "get-command", "gcm", "get-help", "help", "test-path",
		"get-variable", "gv", "set-variable", "sv", "set", "get-member", "gm", "write-error", "write-warning", "write-verbose", "start-sleep", "sleep",
		"get-service", "gsv", "get-host", "clear-host", "cls", "clear", "test-connection", "get-alias", "gal", "convertto-json", "convertfrom-json",
		"get-filehash", "join-path", "split-path", "get-psdrive", "gdr", "new-object", "select-xml", "compare-object", "compare", "diff", "get-random"},
		role: cmNone, switches: []string{"force", "list", "all", "leaf", "parent", "isabsolute", "resolve", "asstring", "compress"},
		params: []string{"path", "name", "value", "format", "seconds", "milliseconds", "childpath", "parent", "leaf", "typename", "argumentlist",
			"referenceobject", "differenceobject", "depth", "minimum", "maximum", "count"},
		examples: []example{{command: "Get-Date -Format o"}, {command: "Test-Path .toolingrc"}}},
}

// cmdletIndex is a spec's Command.cmdlet value.
func cmdletIndex(s *cmdletSpec) uint8 {
	for i := range cmdletTable {
		if &cmdletTable[i] == s {
			return uint8(i + 1)
		}
	}
	return 0
}

// cmdletOf returns the spec of a cmdlet name (lower case), or nil.
func cmdletOf(name string) *cmdletSpec {
	for i := range cmdletTable {
		for _, n := range cmdletTable[i].names {
			if n == name {
				return &cmdletTable[i]
			}
		}
	}
	return nil
}

// param resolves a parameter as PowerShell binds it: the full name or an
// unambiguous prefix of one the spec (or every cmdlet) takes; value says
// whether it takes a value, ok whether it is known at all (an ambiguous
// prefix is not: PowerShell refuses it).
func (s *cmdletSpec) param(p string) (full string, value, ok bool) {
	p = strings.ToLower(p)
	n := 0
	for k, list := range [4][]string{s.params, s.switches, commonParams, commonSwitches} {
		for _, name := range list {
			if a, to, ok := strings.Cut(name, "="); ok {
				// An abbreviation PowerShell resolves itself (gci -r).
				if a == p {
					return to, k%2 == 0, true
				}
				continue
			}
			switch {
			case name == p:
				return name, k%2 == 0, true
			case strings.HasPrefix(name, p) && name != full:
				full, value = name, k%2 == 0
				n++
			}
		}
	}
	return full, value, n == 1
}

// cmdletReads are the files a cmdlet reads and hands on (Get-Content,
// Select-String, the source of Copy-Item), and whether it lists the whole
// environment (Get-ChildItem Env:).
func cmdletReads(c Command, idx int) ([]Read, string) {
	s := c.spec()
	if s == nil || len(c.Args) == 0 {
		return nil, ""
	}
	args := make([]pwsh.Word, len(c.Args)-1)
	for i, a := range c.Args[1:] {
		args[i] = pwsh.Word{Text: a.Value, Literal: a.Dynamic == "", Inner: -1}
	}
	p, ok := parseCmdlet(s, args)
	if !ok {
		return nil, ""
	}
	var reads []Read
	for _, x := range p.paths(s) {
		v := x.Text
		if s.role == cmList {
			if t := strings.ToLower(v); t == "env:" || strings.HasPrefix(t, "env:") && strings.ContainsAny(t[4:], "*?") {
				return nil, c.Args[0].Value + " Env:"
			}
			continue
		}
		if s.role != cmRead && s.role != cmCopy {
			continue
		}
		if !x.Literal {
			reads = append(reads, Read{Dynamic: "PowerShell computes " + v + " at run time", Op: s.names[0], Command: idx})
			continue
		}
		if filepath.Separator == '/' {
			v = strings.ReplaceAll(v, `\`, "/")
		}
		r := Read{Op: s.names[0], Command: idx, Glob: strings.ContainsAny(v, "*?["), Tree: s.role == cmCopy && p.flags["recurse"]}
		switch {
		case filepath.IsAbs(v):
			r.Path = filepath.Clean(v)
		case c.Dir != "":
			r.Path = filepath.Join(c.Dir, v)
		default:
			r.Dynamic = "a relative path in a directory only known at run time"
		}
		if s.role == cmCopy {
			dst := p.named[s.dest]
			if len(dst) == 0 && len(p.pos) > 1 {
				dst = p.pos[1]
			}
			if len(dst) == 1 && dst[0].Literal {
				d := strings.ReplaceAll(dst[0].Text, `\`, string(filepath.Separator))
				if !filepath.IsAbs(d) {
					d = filepath.Join(c.Dir, d)
				}
				r.To = filepath.Clean(d)
			}
		}
		reads = append(reads, r)
	}
	return reads, ""
}

// Equivalent is the argument vector of the program that does what a
// cmdlet does (Remove-Item -Recurse -Force x is rm -r -f x), for a rule
// written about programs' argument vectors; nil for a command that is no
// cmdlet or one without such a program.
func (c Command) Equivalent() []Word {
	s := c.spec()
	if s == nil || s.as == "" || len(c.Args) == 0 {
		return nil
	}
	args := make([]pwsh.Word, len(c.Args)-1)
	for i, a := range c.Args[1:] {
		args[i] = pwsh.Word{Text: a.Value, Literal: a.Dynamic == "", Inner: -1}
	}
	p, ok := parseCmdlet(s, args)
	if !ok {
		return nil
	}
	out := []Word{{Value: s.as}}
	for _, f := range s.asFlags {
		if name, flag, _ := strings.Cut(f, "="); p.flags[name] {
			out = append(out, Word{Value: flag})
		}
	}
	word := func(x pwsh.Word) Word {
		for _, a := range c.Args[1:] {
			if a.Value == x.Text && a.Dynamic != "" {
				return a
			}
		}
		return Word{Value: strings.ReplaceAll(x.Text, `\`, string(filepath.Separator)), Glob: strings.ContainsAny(x.Text, "*?[")}
	}
	if len(p.paths(s)) > 0 {
		out = append(out, Word{Value: "--"})
	}
	for _, x := range p.paths(s) {
		out = append(out, word(x))
	}
	if s.dest != "" {
		dst := p.named[s.dest]
		if len(dst) == 0 && len(p.pos) > 1 {
			dst = p.pos[1]
		}
		for _, x := range dst {
			out = append(out, word(x))
		}
	}
	return out
}

// spec is the command's cmdlet spec, or nil.
func (c Command) spec() *cmdletSpec {
	if c.cmdlet == 0 {
		return nil
	}
	return &cmdletTable[c.cmdlet-1]
}
