package live_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/magehook/magehook/internal/live/modelserver"
)

// adoptedConsumer is a repository as a newcomer has it: a README on main,
// committed, then adopted by magehook init (the command built from this
// tree, -replace at it, the defaults but auditlog) for one agent, and
// the result committed — no hand-made magefile, go.mod or settings.
func adoptedConsumer(t *testing.T, agent string) *Consumer {
	t.Helper()
	root := moduleRoot(t)
	base := t.TempDir()
	c := &Consumer{Dir: filepath.Join(base, "repo"), Home: filepath.Join(base, "home"), Record: filepath.Join(base, "record")}
	for _, d := range []string{c.Dir, c.Home, c.Record, filepath.Join(base, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c.setEnv(t)
	init := filepath.Join(base, "bin", "magehook")
	c.Run(t, root, "go", "build", "-o", init, "./cmd/magehook")
	write(t, c.Dir, "README.md", "# a project\n")
	c.Git(t, "init", "-q", "-b", "main")
	c.Git(t, "add", "-A")
	c.Git(t, "commit", "-q", "-m", "initial")
	c.Run(t, c.Dir, init, "init", "-replace="+root, "-enable=sessionclock,branchguard", "-harness="+agent)
	c.Git(t, "add", "-A")
	c.Git(t, "commit", "-q", "-m", "adopt magehook")
	return c
}

// firstRequest is the text of the first model request a script answered.
func firstRequest(t *testing.T, srv *modelserver.Server) string {
	t.Helper()
	reqs := srv.Scripted()
	if len(reqs) == 0 {
		t.Fatalf("the model was never asked\n%s", srv.Dump())
	}
	return strings.Join(reqs[0].Texts(), "\n")
}

// sessionRule is what branchguard's SessionStart context says on main.
var sessionRule = []string{"on branch main, which the repository", "branch policy (branchguard) protects", "worktree on its own branch"}

// TestClaudeAdoptedRepositoryToldTheRule: in a repository adopted by
// magehook init, a Claude Code session started on main is told, in its
// first model request, that main is protected and that work goes in a
// worktree (EnterWorktree, claude --worktree) — before its first edit.
func TestClaudeAdoptedRepositoryToldTheRule(t *testing.T) {
	cl := requireClient(t, "claude")
	c := adoptedConsumer(t, "claude")
	srv, err := modelserver.Start(modelserver.Script{Key: "", Steps: []modelserver.Step{{Text: "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "say hello")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	checkClaudeHooks(t, s)
	first := firstRequest(t, srv)
	for _, want := range append(sessionRule, "EnterWorktree", "claude --worktree") {
		if !strings.Contains(first, want) {
			t.Errorf("the first model request lacks %q:\n%s", want, first)
		}
	}
}

// TestCodexAdoptedRepositoryToldTheRule is the same with Codex: its
// first model request carries the rule and the worktree way in Codex's
// terms (worktree:create, a workdir).
func TestCodexAdoptedRepositoryToldTheRule(t *testing.T) {
	cl := requireClient(t, "codex")
	c := adoptedConsumer(t, "codex")
	srv, err := modelserver.Start(modelserver.Script{Key: "", Steps: []modelserver.Step{{Text: "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c.codexConfig(t, srv, c.Dir)
	s := c.codex(t, cl, c.Dir, "say hello", "--dangerously-bypass-hook-trust")
	if s.Err != nil {
		t.Fatalf("codex: %v\n%s", s.Err, s.Out)
	}
	first := firstRequest(t, srv)
	for _, want := range append(sessionRule, "worktree:create") {
		if !strings.Contains(first, want) {
			t.Errorf("the first model request lacks %q:\n%s\n%s", want, first, s.Out)
		}
	}
}
