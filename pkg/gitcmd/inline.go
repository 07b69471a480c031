package gitcmd

import (
	"fmt"
	"strings"
)

// interpreter returns the language kind of an interpreter's name.
func interpreter(base string) (string, bool) {
	switch {
	case strings.HasPrefix(base, "python") || base == "pypy" || base == "pypy3":
		return "python", true
	case base == "node" || base == "nodejs" || base == "deno" || base == "bun" || base == "tsx" || base == "ts-node":
		return "js", true
	case strings.HasPrefix(base, "perl"):
		return "perl", true
	case base == "ruby" || base == "irb":
		return "ruby", true
	case strings.HasPrefix(base, "php"):
		return "php", true
	case base == "lua" || base == "luajit":
		return "lua", true
	case base == "awk" || base == "gawk" || base == "mawk" || base == "nawk":
		return "awk", true
	case base == "rscript" || base == "tclsh" || base == "wish" || base == "expect" || base == "osascript" || base == "julia" || base == "elixir" || base == "groovy" || base == "jshell" || base == "scala" || base == "kotlin" || base == "swift":
		return "other", true
	case base == "pwsh" || base == "powershell" || base == "powershell.exe":
		return "powershell", true
	}
	return "", false
}

// codeFlags are the options of an interpreter whose value is program text.
func codeFlag(lang, base, opt string) bool {
	switch lang {
	case "python":
		return opt == "-c"
	case "js":
		return opt == "-e" || opt == "--eval" || opt == "-p" || opt == "--print" || (base == "deno" && opt == "eval")
	case "perl", "ruby", "lua":
		return opt == "-e" || opt == "-E"
	case "php":
		return opt == "-r"
	case "powershell":
		// PowerShell takes any prefix of a parameter's name.
		o := strings.ToLower(opt)
		return len(o) >= 2 && (strings.HasPrefix("-command", o) || strings.HasPrefix("-encodedcommand", o) || o == "-ec")
	case "other":
		return opt == "-e" || opt == "-c"
	}
	return false
}

// interpreter follows an interpreter's program: inline (-c, -e), on
// stdin, or a script file in the checkout.
func (w *walker) interpreter(lang string, args []Word, sc scope, idx int) {
	if lang == "powershell" && w.powershellCommand(args, sc) {
		return
	}
	base := args[0].Value
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	inPlace := false
	var code []string
	codeDynamic := ""
	script := ""
	sawCode := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if lang == "awk" {
			if v == "-f" && i+1 < len(args) {
				script = args[i+1].Value
				sawCode = true
				i++
				continue
			}
			if (v == "-v" || v == "-F") && i+1 < len(args) {
				i++
				continue
			}
			if strings.HasPrefix(v, "-") {
				continue
			}
			if !sawCode {
				if a.Dynamic != "" {
					codeDynamic = a.Dynamic
				}
				code = append(code, v)
				sawCode = true
			}
			continue
		}
		if printsAndExits(lang, v) && a.Dynamic == "" {
			return // node --version, python3 -V, ruby -h: the interpreter prints and exits
		}
		if codeFlag(lang, base, v) && i+1 < len(args) {
			if args[i+1].Dynamic != "" {
				codeDynamic = args[i+1].Dynamic
			}
			code = append(code, args[i+1].Value)
			sawCode = true
			i++
			continue
		}
		if lang == "perl" || lang == "ruby" {
			// Clusters: perl -pi -e, -ne, -i.bak.
			if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") {
				if strings.Contains(v, "i") {
					inPlace = true
				}
				if strings.HasSuffix(v, "e") && i+1 < len(args) {
					if args[i+1].Dynamic != "" {
						codeDynamic = args[i+1].Dynamic
					}
					code = append(code, args[i+1].Value)
					sawCode = true
					i++
				}
				continue
			}
		}
		if lang == "python" && (v == "-m") {
			return // a module: its code is not the command's
		}
		if strings.HasPrefix(v, "-") && v != "-" {
			continue
		}
		if sawCode {
			if inPlace {
				w.addWrite(a, base+" -i", sc, idx, false)
			}
			continue
		}
		if v == "-" {
			break
		}
		if base == "deno" || base == "bun" {
			if v == "run" || v == "x" || v == "task" {
				continue
			}
		}
		script = v
		if a.Dynamic != "" {
			codeDynamic = a.Dynamic
		}
		break
	}
	c := &w.a.Commands[idx]
	if codeDynamic != "" {
		c.Opaque = fmt.Sprintf("%s runs program text only known at run time (%s)", base, codeDynamic)
		w.a.Writes = append(w.a.Writes, w.at(Write{Op: base, Command: idx, Dynamic: c.Opaque, Dir: dirOf(sc)}))
		return
	}
	if sawCode && script == "" {
		w.code(lang, base+" "+flagName(lang), strings.Join(code, "\n"), sc, idx)
		return
	}
	if script != "" {
		p := w.abs(sc, script)
		data, ok := w.readScript(p, idx, "runs "+script)
		if !ok {
			return // not a file in reach: a program installed elsewhere
		}
		w.code(lang, base+" "+script, string(data), sc, idx)
		return
	}
	// The program comes from stdin.
	if text, ok := w.stdinText(sc); ok {
		w.code(lang, base+" (stdin)", text, sc, idx)
		return
	}
	if sc.stdin == nil && !isTerminalOnly(lang) {
		c.Opaque = base + " reads a program from its standard input, which the analysis cannot see"
	}
}

func isTerminalOnly(lang string) bool { return false }

// printsAndExits reports an interpreter option, before any program, with
// which it only prints its version or usage and exits.
func printsAndExits(lang, opt string) bool {
	switch opt {
	case "--version", "--help":
		return lang != "awk" && lang != "powershell"
	}
	switch lang {
	case "js":
		return opt == "-v" || opt == "-h"
	case "python":
		return opt == "-V" || opt == "-VV" || opt == "-h"
	case "ruby":
		return opt == "-h"
	case "perl":
		return opt == "-v" || opt == "-V" || opt == "-h"
	case "php":
		return opt == "-v" || opt == "-h" || opt == "-i" || opt == "-m"
	}
	return false
}

func flagName(lang string) string {
	switch lang {
	case "python":
		return "-c"
	case "php":
		return "-r"
	case "awk":
		return "program"
	case "powershell":
		return "-Command"
	}
	return "-e"
}

// code classifies program text the analysis cannot run: whether it can
// start processes (the command becomes opaque) and whether it can write
// files (an undecidable write). It reads tokens, not the program: a
// program that can do either is reported, whatever it really does.
func (w *walker) code(lang, what, text string, sc scope, idx int) {
	c := &w.a.Commands[idx]
	if lang == "powershell" {
		c.Opaque = what + " runs PowerShell, which the analysis does not follow"
		w.a.Writes = append(w.a.Writes, w.at(Write{Op: what, Command: idx, Dynamic: c.Opaque, Dir: dirOf(sc)}))
		return
	}
	// The processes literal code starts are followed as the shell
	// commands they are; only what is left can start anything unseen.
	calls, rest := inlineCalls(lang, text)
	if why := spawns(lang, rest); why != "" {
		c.Opaque = fmt.Sprintf("%s may start other programs (%s)", what, why)
	}
	for _, call := range calls {
		t := call.text()
		w.shellString(t, Word{Value: t}, what, sc, idx, nil)
	}
	// Literal deletions are followed as the rm they amount to; only
	// what is left can write anything unseen.
	_, unseen := deletions(lang, text)
	if why := writes(lang, unseen); why != "" {
		w.a.Writes = append(w.a.Writes, w.at(Write{Op: what, Command: idx, Dynamic: fmt.Sprintf("%s may write files (%s)", what, why), Dir: dirOf(sc)}))
	}
}

// spawns names a token through which code may run another program, or
// evaluate text built at run time.
func spawns(lang, text string) string {
	tokens := []string{"system", "exec", "spawn", "popen", "subprocess", "child_process", "fork", "pty", "ctypes", "__import__", "importlib", "getattr", "eval", "compile", "b64decode", "base64", "fromCharCode", "Deno.Command", "Deno.run", "Bun.spawn", "Bun.$", "$`", "shell", "Open3", "IO.popen", "Kernel", ".send(", "qx", "dlopen", "Function(", "require(", "import(", "os.Exec", "os/exec", "ProcessBuilder", "Runtime", "do shell script", "open(\"|", "open('|", "|-", "-|", "`", "proc_open", "passthru", "pcntl"}
	if lang == "awk" {
		tokens = []string{"system", "|", "getline"}
	}
	for _, t := range tokens {
		if t == "`" && lang == "js" {
			continue // template literals
		}
		if strings.Contains(text, t) {
			if lang == "js" && t == "require(" && !dynamicRequire(text) {
				continue
			}
			return t
		}
	}
	return ""
}

// dynamicRequire reports a require( whose argument is not a string literal
// of a harmless module (child_process is caught by its own token).
func dynamicRequire(text string) bool {
	for rest := text; ; {
		i := strings.Index(rest, "require(")
		if i < 0 {
			return false
		}
		rest = rest[i+len("require("):]
		rest = strings.TrimLeft(rest, " ")
		if rest == "" || (rest[0] != '\'' && rest[0] != '"') {
			return true
		}
	}
}

// writes names a token through which code may write, delete or change
// files.
func writes(lang, text string) string {
	if lang == "awk" {
		for _, t := range []string{">", "system", "|"} {
			if strings.Contains(text, t) && (t != ">" || awkRedirect(text)) {
				return t
			}
		}
		return ""
	}
	for _, t := range []string{"write", "Write", "unlink", "remove", "Remove", "rename", "Rename", "rmtree", "mkdir", "Mkdir", "rmdir", "chmod", "chown", "truncate", "symlink", "link(", "touch", "shutil", "copyFile", "copyfile", "cpSync", "FileUtils", "File.open", "file_put_contents", "fopen", "fputs", "Set-Content", "Out-File", "os.replace", "rmSync", "rm(", "utime", "mkfifo", "makedirs", "delete", "Delete", "rm_r", "rm_f", "move", "Move", "replace(", "IO.write", "File.new", "Path(", "Dir.rmdir"} {
		if strings.Contains(text, t) {
			if (t == "write" || t == "Write") && onlyStdWrites(text) {
				continue
			}
			if t == "`" && lang == "js" {
				continue
			}
			return t
		}
	}
	if openForWriting(text) {
		return "open for writing"
	}
	return ""
}

// onlyStdWrites reports that every "write" in text is to stdout or
// stderr (sys.stdout.write, process.stdout.write).
func onlyStdWrites(text string) bool {
	n := strings.Count(text, "write") + strings.Count(text, "Write")
	std := strings.Count(text, "stdout.write") + strings.Count(text, "stderr.write") + strings.Count(text, "Console.Write")
	return n == std
}

// openForWriting looks for an open( call with a mode that writes.
func openForWriting(text string) bool {
	for rest := text; ; {
		i := strings.Index(rest, "open(")
		if i < 0 {
			i = strings.Index(rest, "open ")
			if i < 0 {
				return false
			}
		}
		rest = rest[i+5:]
		end := strings.IndexAny(rest, ")\n;")
		if end < 0 {
			end = len(rest)
		}
		args := rest[:end]
		for _, m := range []string{`'w`, `"w`, `'a`, `"a`, `'x`, `"x`, `+'`, `+"`, `'r+`, `"r+`, "mode", ">", "O_WRONLY", "O_RDWR", "O_CREAT"} {
			if strings.Contains(args, m) {
				return true
			}
		}
	}
}

// awkRedirect looks for print or printf output sent to a file.
func awkRedirect(text string) bool {
	for rest := text; ; {
		i := strings.Index(rest, "print")
		if i < 0 {
			return false
		}
		rest = rest[i+5:]
		end := strings.IndexAny(rest, ";}\n")
		if end < 0 {
			end = len(rest)
		}
		if strings.Contains(rest[:end], ">") {
			return true
		}
	}
}
