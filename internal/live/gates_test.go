package live_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/magehook/magehook/internal/live"
	"github.com/magehook/magehook/internal/live/modelserver"
)

// mcpFilesystem is the MCP server the gate scenarios give Claude Code:
// the reference filesystem server, pinned.
var mcpFilesystem = live.Client{Name: "mcp-filesystem", Package: "@modelcontextprotocol/server-filesystem", Version: "2026.8.31", Bin: "mcp-server-filesystem"}

// requireMCPFilesystem installs the pinned filesystem server into the
// clients' cache (npm, a package registry) unless it is there.
func requireMCPFilesystem(t *testing.T) string {
	t.Helper()
	if !mcpFilesystem.Installed() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if err := live.Install(ctx, mcpFilesystem, io.Discard, io.Discard); err != nil {
			t.Skipf("%s is not installed and npm could not install it: %v", mcpFilesystem, err)
		}
	}
	return mcpFilesystem.Path()
}

// mcpConfig writes a --mcp-config file naming the filesystem server as
// "fs", allowed in dirs.
func mcpConfig(t *testing.T, server string, dirs ...string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fs": map[string]any{"type": "stdio", "command": server, "args": dirs}}})
	p := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClaudeGatesSeeMCPAndGitPrograms (issue 24): on main, with the
// filesystem MCP server configured, the server's write of README.md and
// its edit of .toolingrc are denied and change nothing, and so is a
// git config core.fsmonitor naming a script that commits on main; the
// server's read passes. The reasons reach the model.
func TestClaudeGatesSeeMCPAndGitPrograms(t *testing.T) {
	cl := requireClient(t, "claude")
	server := requireMCPFilesystem(t)
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	base := filepath.Dir(c.Dir)
	fsm := filepath.Join(base, "fsm.sh")
	write(t, base, "fsm.sh", "#!/bin/sh\ngit -C "+c.Dir+" commit -q --allow-empty -m fsmonitor\n")
	os.Chmod(fsm, 0o755)
	readme := filepath.Join(c.Dir, "README.md")
	rc := filepath.Join(c.Dir, ".toolingrc")
	beforeRC := read(t, rc)
	before := c.head(t, c.Dir, "main")
	srv, err := modelserver.Start(modelserver.Script{Key: "gates mcp", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{{Name: "mcp__fs__read_text_file", Input: map[string]any{"path": readme}}}},
		{Calls: []modelserver.Call{{Name: "mcp__fs__write_file", Input: map[string]any{"path": readme, "content": "overwritten\n"}}}},
		{Calls: []modelserver.Call{{Name: "mcp__fs__edit_file", Input: map[string]any{"path": rc, "edits": []any{map[string]any{"oldText": "hook.enable branchguard", "newText": "hook.enable sessionclock"}}}}}},
		{Calls: []modelserver.Call{modelserver.Bash("git config core.fsmonitor " + fsm)}},
		{Calls: []modelserver.Call{modelserver.Bash("git status --short")}},
		{Text: "finished"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, c.Dir, "gates mcp", "--mcp-config", mcpConfig(t, server, base))
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	runs := checkClaudeHooks(t, s)
	records := c.Records(t)
	capture(t, cl, c, "gates-mcp", records, runs)
	var mcp int
	for _, r := range Of(records, "PreToolUse") {
		if name, _ := r.Payload["tool_name"].(string); strings.HasPrefix(name, "mcp__fs__") {
			mcp++
		}
	}
	if mcp < 3 {
		t.Fatalf("PreToolUse saw %d MCP calls, want 3 (the server did not start?)\n%s", mcp, s.Debug)
	}
	if got := read(t, readme); got != "# consumer\n" {
		t.Errorf("the MCP write of README.md on main happened: %q", got)
	}
	if got := read(t, rc); got != beforeRC {
		t.Errorf("the MCP edit of .toolingrc happened: %q", got)
	}
	if v, _ := os.ReadFile(filepath.Join(c.Dir, ".git", "config")); strings.Contains(string(v), "fsmonitor") {
		t.Errorf("core.fsmonitor was set:\n%s", v)
	}
	if after := c.head(t, c.Dir, "main"); after != before {
		t.Errorf("main moved: %s -> %s", before, after)
	}
	for _, reason := range []string{"mcp__fs__write_file would change", "mcp__fs__edit_file", "fsmonitor"} {
		if !srv.Reached(reason) {
			t.Errorf("the reason %q did not reach the model\n%s", reason, srv.Dump())
		}
	}
	if !srv.Reached("# consumer") {
		t.Errorf("the MCP read of README.md did not pass\n%s", srv.Dump())
	}
}

// TestClaudeSnapshotAppendThenWorktreeCommit (issue 24.3): in a worktree
// session, appending GIT_DIR and GIT_WORK_TREE of the main checkout to
// Claude Code's shell snapshot is denied, so the plain git commit that
// follows lands on the worktree's branch and main does not move.
func TestClaudeSnapshotAppendThenWorktreeCommit(t *testing.T) {
	cl := requireClient(t, "claude")
	t.Parallel()
	c := newConsumer(t, catalogue)
	c.installClaude(t)
	wt := filepath.Join(c.Dir, ".claude", "worktrees", "snap")
	c.Git(t, "worktree", "add", "-q", "-b", "snap", wt)
	before, wtBefore := c.head(t, c.Dir, "main"), c.head(t, wt, "HEAD")
	appendCmd := "echo 'export GIT_DIR=" + c.Dir + "/.git GIT_WORK_TREE=" + c.Dir + "' >> ~/.claude/shell-snapshots/snapshot-bash-*.sh"
	srv, err := modelserver.Start(modelserver.Script{Key: "snapshot", Steps: []modelserver.Step{
		{Calls: []modelserver.Call{modelserver.Bash("ls ~/.claude/shell-snapshots")}},
		{Calls: []modelserver.Call{modelserver.Bash(appendCmd)}},
		{Calls: []modelserver.Call{modelserver.Bash(`git commit -q --allow-empty -m "after the snapshot"`)}},
		{Text: "finished"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := c.claude(t, cl, srv, wt, "snapshot")
	if s.Err != nil {
		t.Fatalf("claude: %v\n%s", s.Err, s.Stdout)
	}
	capture(t, cl, c, "snapshot-append", c.Records(t), checkClaudeHooks(t, s))
	snaps, _ := filepath.Glob(filepath.Join(c.Home, ".claude", "shell-snapshots", "*"))
	for _, f := range snaps {
		if strings.Contains(read(t, f), "GIT_WORK_TREE") {
			t.Errorf("the snapshot %s was appended to", f)
		}
	}
	if !srv.Reached("shell-snapshots") {
		t.Errorf("the snapshot deny did not reach the model\n%s", srv.Dump())
	}
	if after := c.head(t, c.Dir, "main"); after != before {
		t.Errorf("main moved: %s -> %s", before, after)
	}
	if c.head(t, wt, "HEAD") == wtBefore {
		t.Error("the commit in the worktree did not happen")
	}
}
