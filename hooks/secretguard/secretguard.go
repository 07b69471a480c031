// Package secretguard keeps secret files and the environment out of the
// agent's session.
//
// # PURPOSE
//
// Whatever a tool call reads goes to the model provider and into the
// transcript: a Read of .env, a cat of ~/.ssh/id_ed25519 or an env dump
// puts credentials where they do not belong, and a prompt-injected agent
// can be told to do exactly that. This gate denies every way the agent's
// tools read a secret file's contents — not only a Read of ".env" — and
// tells the agent to ask the user for the value it needs instead.
//
// The secret files (defaults, then the repository's):
//
//	.env, .env.*            dotenv files, except .env.example, .env.sample,
//	                        .env.template, .env.dist (and .env.*.example, ...)
//	id_rsa, id_dsa, id_ecdsa, id_ed25519 (and _sk), *.pem, *.key, *.p12,
//	*.pfx, *.jks, *.keystore, *.ppk       private keys and key stores
//	.netrc, _netrc, .pgpass, .git-credentials   credentials
//	.npmrc, .pypirc, .yarnrc.yml, .gem/credentials   when they hold a token
//	~/.aws/credentials, ~/.config/gcloud/**, ~/.kube/config,
//	~/.docker/config.json, ~/.config/gh/hosts.yml, ~/.azure/**,
//	~/.gnupg/private-keys-v1.d/**, and the files $AWS_SHARED_CREDENTIALS_FILE,
//	$KUBECONFIG and $GOOGLE_APPLICATION_CREDENTIALS name   cloud credentials
//	secrets/**              the checkout's secrets directory
//	/proc/*/environ         a process's environment
//
//	secretguard.path 'config/*.secret.json'   # adds a glob (repeat)
//	secretguard.allow 'testdata/**'           # exempts one (repeat)
//
// A glob without a slash matches a file name at any depth; one with a slash
// is anchored at the checkout root (the directory of .toolingrc), one
// starting with ~/ at the home directory, one starting with / at the file
// system's root; ** matches any number of directories. Names are compared
// without regard to case (.ENV is .env on macOS and Windows).
//
// # HOW IT WORKS
//
//  1. PreToolUse of Read, NotebookRead, Grep, Bash, PowerShell and every
//     MCP tool (mcp__.*; a harness whose matchers cannot say that runs it
//     for every tool, and the tools that read nothing — Edit, Write,
//     Glob, which lists names — are let through at once). Harnesses' own
//     tools arrive under the common names (Gemini's read_file and read_many_files as Read,
//     search_file_content as Grep, Copilot's view as Read, OpenCode's read
//     and grep, Codex's and Gemini's shells as Bash).
//  2. Read and NotebookRead: the file (file_path, notebook_path, path,
//     absolute_path) and every path or pattern of read_many_files' paths.
//     Grep: its path when it is a file; a directory is searched as Claude
//     Code's ripgrep does (hidden files searched, git-ignored ones
//     skipped unless its glob names them).
//  3. Bash, and the native commands of PowerShell: the files the commands
//     read and hand on, from the shared command model (pkg/gitcmd, reads.go:
//     cat, head, less, grep and rg after the pattern, sed, awk, jq,
//     source, cp/ln/scp to another name, base64, xxd, od, strings, tar and
//     zip members, curl -d @f and -T, git show REV:path, git diff, log -p
//     and blame over files, interpreters' literal code, < redirections),
//     through wrappers, bash -c, aliases and loops. A recursive search or
//     archive of a directory reads the secret files below it (grep -r
//     reads hidden and ignored files, rg does not; --exclude, -g '!x'
//     leave them out). A copy to another secret name (cp .env .env.bak)
//     is not a read into the session. A path only known at run time is
//     denied when the command names a secret file. PowerShell's own
//     readers (Get-Content, Select-String, Copy-Item, Import-Csv,
//     Format-Hex, [IO.File]::Read*) are read by their -Path operands.
//  4. Whole-environment dumps are denied: env or printenv without a
//     command or name, set without arguments, export -p, declare -p/-x,
//     interpreter code printing os.environ or process.env, PowerShell's
//     Get-ChildItem Env:. env FOO=1 cmd, printenv HOME and echo "$HOME"
//     pass. So are the commands that print a stored credential: gh auth
//     token, gcloud auth print-access-token, aws configure get of a secret
//     and export-credentials, kubectl config view --raw, git credential
//     fill, docker-credential-* get, security find-*-password -w.
//  5. MCP tools: every argument that reads as a path (absolute, ~/, ./,
//     or with a slash) naming a secret file that is not a directory.
//  6. Each path is judged as written and after its symbolic links are
//     resolved, so a link to .env is .env. The deny reason names the file
//     and the rule, never a value (the gate reads no secret's contents,
//     but the few bytes that tell whether an .npmrc holds a token).
//
// # EXIT CODES
//
//	0  allowed (no output), or denied with the decision on stdout
//	2  the gate failed (a bad glob, an analysis over its budget): the call
//	   is blocked
package secretguard

import (
	"fmt"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
)

// Handler is the catalogue entry.
var Handler = hook.Handler{
	Name:    "secretguard",
	Purpose: "deny reading secret files (.env, private keys, cloud credentials) and environment dumps into the session, by every tool and shell command",
	Events:  []string{"PreToolUse"},
	Matcher: "Read|NotebookRead|Grep|Bash|PowerShell|mcp__.*",
	Policy:  hook.Gatekeeper,
	Run:     run,
}

const advice = "A secret's contents must not enter the session: if you need a value, ask the user for that variable by name (an example file such as .env.example lists the names); ls and test -f tell whether a file exists"

func run(c *hook.Call) (hook.Result, error) {
	p := c.Payload
	tool := p.ToolName
	switch {
	case p.IsTool("Read", "NotebookRead", "Grep", "Bash", "PowerShell"):
	case strings.HasPrefix(tool, "mcp__"):
	default:
		return hook.Result{}, nil
	}
	g, err := newGuard(c)
	if err != nil {
		return hook.Result{}, err
	}
	var found []string
	switch {
	case p.IsTool("Read", "NotebookRead"):
		found, err = g.readTool()
	case p.IsTool("Grep"):
		found, err = g.grepTool()
	case p.IsTool("Bash"):
		command, _ := p.InputString("command")
		found, err = g.shell(command, false)
	case p.IsTool("PowerShell"):
		command, _ := p.InputString("command")
		found, err = g.powershell(command)
	default:
		found, err = g.mcp()
	}
	if err != nil {
		return hook.Result{}, err
	}
	if len(found) == 0 {
		return hook.Result{}, nil
	}
	return hook.Deny(fmt.Sprintf("secretguard: %s. %s.", strings.Join(dedupe(found), "; "), advice)), nil
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
