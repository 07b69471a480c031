package live_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/magehook/magehook/internal/live/modelserver"
)

// The catalogue handlers of issue 17 in the real Claude Code, offline on
// the scripted model.

// TestClaudeCmdguardDeniesADestructiveCommand: rm -rf of the home
// directory is denied before it runs, and the rule's reason reaches the
// model.
func TestClaudeCmdguardDeniesADestructiveCommand(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, "hook.enable cmdguard\n")
	c.installClaude(t)
	write(t, c.Home, "keep.txt", "the home directory must survive\n")
	srv, err := modelserver.Start(modelserver.Script{Key: "clean up", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash("rm -rf ~")}}, {Text: "cleaned"}}, Final: "cleaned"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "clean up")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	checkClaudeHooks(t, s)
	if _, err := os.Stat(filepath.Join(c.Home, "keep.txt")); err != nil {
		t.Fatalf("the home directory was deleted: %v", err)
	}
	if !srv.Reached("rule rm-everything") {
		t.Errorf("cmdguard's reason did not reach the model\n%s", srv.Dump())
	}
}

// TestClaudeContextfileAndStopreminder: the notes file reaches the
// model's context at the session start; a session that changed a file
// through Bash is reminded once at its stop, and then stops.
func TestClaudeContextfileAndStopreminder(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, "hook.enable contextfile\ncontext.file NOTES.md\nhook.enable stopreminder\n")
	write(t, c.Dir, "NOTES.md", "- the integration tests need LIVE_NOTES_MARKER=1\n")
	c.installClaude(t)
	srv, err := modelserver.Start(modelserver.Script{Key: "do it", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash("echo done > result.txt")}}, {Text: "done"}}, Final: "noted"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "do it")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	checkClaudeHooks(t, s)
	if !srv.Reached("LIVE_NOTES_MARKER=1") {
		t.Errorf("the notes did not reach the model\n%s", srv.Dump())
	}
	if !srv.Reached("Before you stop: record what this session learned") {
		t.Errorf("the reminder did not reach the model\n%s", srv.Dump())
	}
	if stops := Of(c.Records(t), "Stop"); len(stops) != 2 {
		t.Errorf("Stop fired %d times, want 2 (reminded once, then let through)", len(stops))
	}
}

// TestClaudeDocGates: a commit that adds a document nothing links to is
// denied before it runs (docorphan, the git add in the same command
// counted); a commit of tooling without docs gets docdrift's advisory.
func TestClaudeDocGates(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, "hook.enable docorphan\nhook.enable docdrift\ndocdrift.watch *.sh\n")
	c.installClaude(t)
	before := c.head(t, c.Dir, "HEAD")
	srv, err := modelserver.Start(modelserver.Script{Key: "write docs", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash("echo '# Guide' > guide.md && git add guide.md && git commit -qm 'docs: guide'")}},
		{Calls: []modelserver.Call{modelserver.Bash("echo 'echo build' > build.sh && git add build.sh && git commit -qm 'build: script'")}},
		{Text: "done"}}, Final: "done"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "write docs")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	checkClaudeHooks(t, s)
	if !srv.Reached("the commit adds guide.md, which no other document links to") {
		t.Errorf("docorphan's reason did not reach the model\n%s", srv.Dump())
	}
	if !srv.Reached("changed build.sh (docdrift.watch) but no Markdown file") {
		t.Errorf("docdrift's advisory did not reach the model\n%s", srv.Dump())
	}
	if after := c.head(t, c.Dir, "HEAD~1"); after != before {
		t.Errorf("want exactly one new commit (the build script): HEAD~1 is %s, was %s", after, before)
	}
}
