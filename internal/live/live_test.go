package live_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/internal/live/modelserver"
	"github.com/magehook/magehook/pkg/hook"
)

// requireClient returns the pinned client, or skips the test with one line
// saying how to install it. Under MAGEHOOK_LIVE=require (live:test, CI) a
// missing client fails the test instead; MAGEHOOK_LIVE=off skips every
// live test.
func requireClient(t *testing.T, name string) live.Client {
	t.Helper()
	c, err := live.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("MAGEHOOK_LIVE") == "off" {
		t.Skip("MAGEHOOK_LIVE=off: the live tests run in `go tool mage live:test`")
	}
	if !c.Installed() {
		if os.Getenv("MAGEHOOK_LIVE") == "require" {
			t.Fatal(c.SkipMessage())
		}
		t.Skip(c.SkipMessage())
	}
	if testing.Short() {
		t.Skip("live tests run real clients; not with -short")
	}
	return c
}

// moduleRoot is the magehook working tree the consumers import.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var goEnv = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	return []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2], "GOROOT=" + v[3]}, nil
})

// Consumer is a fresh repository that imports the plugin from the working
// tree, with a bare origin, and a private HOME for the client: nothing
// here reads or writes the real ~/.claude, ~/.codex and the rest.
type Consumer struct {
	// Dir is the checkout, on branch main, pushed to Origin.
	Dir, Origin string
	// Home is the private HOME the client and the hooks run with.
	Home string
	// Record is where the recorder hook writes each payload it is sent.
	Record string
	// Env is the environment every command here runs with.
	Env []string
	// clineHubPort is the port of the consumer's own Cline hub daemon.
	clineHubPort string
}

const magefile = "//go:build mage\n\npackage main\n\nimport (\n\t//mage:import\n\t_ \"github.com/magehook/magehook/magefiles/targets\"\n)\n"

// freshClone clones the pushed consumer beside it, as a teammate's clone:
// no bin/magehook (the first hook builds it), and README.md changed in
// the work tree for the agent to commit.
func (c *Consumer) freshClone(t *testing.T) string {
	t.Helper()
	clone := filepath.Join(filepath.Dir(c.Dir), "clone")
	c.Run(t, filepath.Dir(c.Dir), "git", "clone", "-q", c.Origin, clone)
	if _, err := os.Stat(filepath.Join(clone, "bin", "magehook")); err == nil {
		t.Fatal("the clone has a binary")
	}
	write(t, clone, "README.md", "# consumer\nchanged\n")
	return clone
}

// checkGuardedWork judges a session of the guarded work (a commit, an
// edit of README.md, a new NEW.md) in a checkout on branch: on main
// nothing moved or changed, each gate's reason reached the model and no
// other client's way out was named; on a feature branch all of it
// happened.
func checkGuardedWork(t *testing.T, branch, before, after, readme string, newErr error, srv *modelserver.Server, out, client string) {
	t.Helper()
	if branch == "main" {
		if after != before || strings.Contains(readme, "edited") || newErr == nil {
			t.Errorf("main moved or a file changed: %s -> %s, README %q, NEW.md %v\n%s", before, after, readme, newErr, out)
		}
		for _, want := range []string{"git commit would move the protected branch main", "Edit would change", "Write would change"} {
			if !srv.Reached(want) {
				t.Errorf("%q did not reach the model\n%s\n%s", want, srv.Dump(), out)
			}
		}
		if srv.Reached("claude --worktree") {
			t.Errorf("the reason names Claude Code's way out to %s\n%s", client, srv.Dump())
		}
		return
	}
	if after == before || !strings.Contains(readme, "edited") || newErr != nil {
		t.Errorf("the work on %s did not happen: %s -> %s, README %q, NEW.md %v\n%s\n%s", branch, before, after, readme, newErr, out, srv.Dump())
	}
}

// newConsumer makes the repository with the given .toolingrc. It commits
// everything and pushes main.
func newConsumer(t *testing.T, toolingrc string) *Consumer {
	t.Helper()
	root := moduleRoot(t)
	base := t.TempDir()
	c := &Consumer{Dir: filepath.Join(base, "consumer"), Origin: filepath.Join(base, "origin.git"),
		Home: filepath.Join(base, "home"), Record: filepath.Join(base, "record")}
	for _, d := range []string{c.Dir, c.Home, c.Record} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c.setEnv(t)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, c.Dir, "go.mod", "module example.com/consumer\n\ngo 1.26\n\ntool github.com/magefile/mage\n\nrequire (\n\tgithub.com/magefile/mage v1.17.2\n\tgithub.com/magehook/magehook v0.0.0\n)\n\nreplace github.com/magehook/magehook => "+root+"\n")
	write(t, c.Dir, "go.sum", string(sum))
	write(t, c.Dir, "magefiles/magefile.go", magefile)
	write(t, c.Dir, ".toolingrc", toolingrc)
	write(t, c.Dir, ".gitignore", "bin/\n.magehook/\n")
	write(t, c.Dir, "README.md", "# consumer\n")
	c.Git(t, "init", "-q", "-b", "main")
	c.Git(t, "add", "-A")
	c.Git(t, "commit", "-q", "-m", "initial")
	c.Run(t, base, "git", "init", "-q", "--bare", c.Origin)
	c.Git(t, "remote", "add", "origin", c.Origin)
	c.Git(t, "push", "-q", "-u", "origin", "main")
	return c
}

// setEnv is the environment of every command of the consumer: the
// private HOME (with its git identity), the module cache and no network.
func (c *Consumer) setEnv(t *testing.T) {
	t.Helper()
	genv, err := goEnv()
	if err != nil {
		t.Fatal(err)
	}
	c.Env = append([]string{
		"HOME=" + c.Home,
		"PATH=" + os.Getenv("PATH"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GOFLAGS=-mod=mod",
		"GOPROXY=off",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
		"MAGEHOOK_RECORD=" + c.Record,
	}, genv...)
	write(t, c.Home, ".gitconfig", "[user]\n\tname = Live Test\n\temail = live@example.com\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n")
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Run runs a command in dir with the consumer's environment and returns
// its trimmed stdout, failing the test on an error.
func (c *Consumer) Run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = c.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr.Bytes())
	}
	return strings.TrimSpace(string(out))
}

// Git runs git in the checkout.
func (c *Consumer) Git(t *testing.T, args ...string) string {
	t.Helper()
	return c.Run(t, c.Dir, "git", args...)
}

// Install runs hook:install -harness=name in the checkout: it builds
// bin/magehook and writes the harness's configuration.
func (c *Consumer) Install(t *testing.T, harness string) {
	t.Helper()
	c.Run(t, c.Dir, "go", "tool", "mage", "hook:install", "-harness="+harness)
}

// InstallAndPush installs the harness's entries, commits everything and
// pushes main, so that a clone of the origin carries the wiring (the
// fresh-clone scenarios start from there).
func (c *Consumer) InstallAndPush(t *testing.T, harness string) {
	t.Helper()
	c.Install(t, harness)
	c.Git(t, "add", "-A")
	c.Git(t, "commit", "-q", "-m", "hook:install -harness="+harness)
	c.Git(t, "push", "-q", "origin", "main")
}

// recorderCommand is the foreign hook that records what a client sends:
// the payload on stdin into a file named by time and event, and the
// harness variables of its environment beside it. It prints nothing.
func recorderCommand(event string) string {
	return `f=$(mktemp "$MAGEHOOK_RECORD/$(date +%s%N)-` + event + `.XXXXXX") && cat > "$f" && env | grep -E '^(CLAUDE|COPILOT|GEMINI|CODEX|OPENCODE|FACTORY|DROID|AUGMENT)_' > "$f.env"; exit 0`
}

// Record is one payload the recorder hook was sent.
type Record struct {
	Event   string
	Payload map[string]any
	Raw     []byte
	Env     map[string]string
}

// Records reads what the recorder captured, in order.
func (c *Consumer) Records(t *testing.T) []Record {
	t.Helper()
	entries, err := os.ReadDir(c.Record)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".env") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Record
	for _, n := range names {
		raw := []byte(read(t, filepath.Join(c.Record, n)))
		if len(bytes.TrimSpace(raw)) == 0 {
			// A hook the client does not wait for (StopFailure as the
			// process exits) can be cut off before it reads its stdin.
			t.Logf("recorded %s is empty: the client did not wait for the hook", n)
			continue
		}
		r := Record{Event: strings.SplitN(n, "-", 2)[1], Raw: raw, Env: map[string]string{}}
		r.Event = r.Event[:strings.LastIndexByte(r.Event, '.')]
		if err := json.Unmarshal(raw, &r.Payload); err != nil {
			t.Errorf("recorded %s is not JSON: %v\n%s", n, err, raw)
		}
		if env, err := os.ReadFile(filepath.Join(c.Record, n+".env")); err == nil {
			for _, line := range strings.Split(strings.TrimSpace(string(env)), "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					r.Env[k] = v
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// Fired returns the recorded events, in order.
func Fired(records []Record) []string {
	var out []string
	for _, r := range records {
		out = append(out, r.Event)
	}
	return out
}

// Of returns the records of one event.
func Of(records []Record, event string) []Record {
	var out []Record
	for _, r := range records {
		if r.Event == event {
			out = append(out, r)
		}
	}
	return out
}

// allEvents is every event of pkg/hook's table.
func allEvents() []string {
	var out []string
	for _, e := range hook.Events() {
		out = append(out, e.Name)
	}
	return out
}

// head is the commit a ref points at in a repository.
func (c *Consumer) head(t *testing.T, dir, ref string) string {
	t.Helper()
	return c.Run(t, dir, "git", "rev-parse", ref)
}

func jsonString(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(b.String())
}
