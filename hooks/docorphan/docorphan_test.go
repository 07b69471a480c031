package docorphan_test

import (
	"strings"
	"testing"

	"github.com/magehook/magehook/hooks/docorphan"
	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{docorphan.Handler}

func repo(t *testing.T, rc ...string) string {
	t.Helper()
	return gittest.Repo(t, map[string]string{
		".toolingrc":     strings.Join(append([]string{"hook.enable docorphan"}, rc...), "\n") + "\n",
		"README.md":      "# r\n\nSee [the docs](docs/README.md).\n",
		"docs/README.md": "# Docs\n\n- [Old](old.md)\n",
		"docs/old.md":    "old\n",
	})
}

func pre(t *testing.T, dir, command string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, dir, "PreToolUse", "PreToolUse/bash", map[string]any{"tool_input.command": command})
}

func stage(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	gittest.Write(t, dir, files)
	gittest.Git(t, dir, "add", "-A")
}

func TestAnOrphanIsRefusedWithTheIndexToEdit(t *testing.T) {
	dir := repo(t)
	stage(t, dir, map[string]string{"docs/guide/setup.md": "# Setup\n", "src/a.go": "package a\n"})
	out := pre(t, dir, `git commit -m "docs: setup"`)
	if out.Code != 0 || !strings.Contains(out.Stdout, `"permissionDecision":"deny"`) ||
		!strings.Contains(out.Stdout, "the commit adds docs/guide/setup.md, which no other document links to; link it from docs/README.md") {
		t.Errorf("%+v", out)
	}
}

func TestALinkedDocumentPasses(t *testing.T) {
	links := map[string]string{
		"inline, relative":        "- [Setup](guide/setup.md)\n",
		"inline, with a fragment": "- [Setup](./guide/setup.md#install \"title\")\n",
		"reference":               "[setup]: guide/setup.md\n",
		"angle brackets":          "- [Setup](<guide/setup.md>)\n",
		"html":                    `<a href="guide/setup.md">setup</a>` + "\n",
		"from the root":           "- [Setup](/docs/guide/setup.md)\n",
		"a wiki link":             "[[guide/setup]]\n",
		"a directory link":        "",
	}
	for name, link := range links {
		t.Run(name, func(t *testing.T) {
			dir := repo(t)
			files := map[string]string{"docs/guide/setup.md": "# Setup\n", "docs/README.md": "# Docs\n" + link}
			if name == "a directory link" {
				files = map[string]string{"docs/guide/index.md": "# Guide\n", "docs/README.md": "# Docs\n[guide](guide/)\n"}
			}
			stage(t, dir, files)
			if out := pre(t, dir, "git commit -m docs"); out.Code != 0 || out.Stdout != "" {
				t.Errorf("%+v", out)
			}
		})
	}
}

func TestOnlyARealCommitOfAddedDocsIsChecked(t *testing.T) {
	dir := repo(t)
	stage(t, dir, map[string]string{"docs/lonely.md": "# alone\n"})
	for _, command := range []string{`echo "git commit -m x"`, "git status", "git log -1", "cat <<EOF\ngit commit\nEOF"} {
		if out := pre(t, dir, command); out.Code != 0 || out.Stdout != "" {
			t.Errorf("%q: %+v", command, out)
		}
	}
	// A document that only links to itself is still an orphan.
	stage(t, dir, map[string]string{"docs/lonely.md": "# alone\n[me](lonely.md)\n"})
	if out := pre(t, dir, "git commit -m x"); !strings.Contains(out.Stdout, "docs/lonely.md") {
		t.Errorf("%+v", out)
	}
	// A modified, already tracked document is not new.
	gittest.Git(t, dir, "reset", "-q")
	stage(t, dir, map[string]string{"docs/old.md": "changed\n"})
	gittest.Git(t, dir, "rm", "-q", "--cached", "docs/lonely.md")
	if out := pre(t, dir, "git commit -m x"); out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestExemptDocuments(t *testing.T) {
	dir := repo(t, "docorphan.skip docs/adr/**")
	stage(t, dir, map[string]string{"docs/adr/0001.md": "x", "CHANGELOG.md": "x", "pkg/README.md": "x", ".claude/agents/r.md": "x"})
	if out := pre(t, dir, "git commit -m x"); out.Code != 0 || out.Stdout != "" {
		t.Errorf("%+v", out)
	}
}

func TestACommitElsewhereOrInAnUnknownPlace(t *testing.T) {
	other := repo(t)
	stage(t, other, map[string]string{"notes.md": "x"})
	dir := gittest.Repo(t, map[string]string{".toolingrc": "hook.enable docorphan\n"})
	if out := pre(t, dir, "git -C "+other+" commit -m x"); !strings.Contains(out.Stdout, "adds notes.md") || !strings.Contains(out.Stdout, "link it from README.md") {
		t.Errorf("the commit's repository decides: %+v", out)
	}
	if out := pre(t, dir, `cd "$(mktemp -d)" && git commit -m x`); !strings.Contains(out.Stdout, `"permissionDecision":"deny"`) || !strings.Contains(out.Stdout, "computes at run time") {
		t.Errorf("an unknown directory fails closed: %+v", out)
	}
	if out := pre(t, dir, `git commit -m "x`); !strings.Contains(out.Stdout, "does not parse") {
		t.Errorf("%+v", out)
	}
}

func TestLinks(t *testing.T) {
	got := strings.Join(docorphan.Links("a [x](one.md) b\n[id]: two.md \"t\"\nnot a ref]: three.md\n<A HREF='four.md'>\n[[five|Five]]"), ",")
	if got != "one.md,two.md,four.md,five,five.md" {
		t.Errorf("Links: %s", got)
	}
}

func TestAGitAddInTheSameCommandCounts(t *testing.T) {
	dir := repo(t)
	gittest.Write(t, dir, map[string]string{"docs/new.md": "# new\n", "notes/draft.md": "x\n"})
	for _, command := range []string{
		"git add -A && git commit -m docs",
		"git add . && git commit -m docs",
		"git add docs && git commit -m docs",
		"cd docs && git add new.md && git commit -m docs",
		"git add 'docs/*.md' && git commit -m docs",
	} {
		out := pre(t, dir, command)
		if !strings.Contains(out.Stdout, "the commit adds docs/new.md") {
			t.Errorf("%q: %+v", command, out)
		}
	}
	for _, command := range []string{
		"git add src && git commit -m code",
		"git add -u && git commit -m code",
		"git commit -am code",
	} {
		if out := pre(t, dir, command); out.Stdout != "" {
			t.Errorf("%q stages no new document: %+v", command, out)
		}
	}
}

func TestADocumentWrittenByTheSameCommandCounts(t *testing.T) {
	dir := repo(t)
	out := pre(t, dir, "echo '# Guide' > guide.md && git add guide.md && git commit -qm 'docs: guide'")
	if !strings.Contains(out.Stdout, "the commit adds guide.md, which no other document links to") {
		t.Errorf("%+v", out)
	}
	if out := pre(t, dir, "echo '# Old' > docs/old.md && git add -A && git commit -qm x"); out.Stdout != "" {
		t.Errorf("a tracked document is not new: %+v", out)
	}
}
