package magehook_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// unitsPage is the page that says what each FuguBench unit cited here
// requires, and where magehook does it.
const unitsPage = "docs/units.md"

// unitID is a FuguBench unit id (WT-CLONE-3), with what may follow it in
// a citation: a range (WT-CLONE-1..7) or further numbers of the family
// (CLI-DOCTOR-1/2).
var (
	unitID    = regexp.MustCompile(`\b([A-Z]{2,6}-[A-Z]{2,12})-([0-9]+)((?:(?:\.\.|/)[0-9]+)*)\b`)
	rangePart = regexp.MustCompile(`(\.\.|/)([0-9]+)`)
)

// unitCitations returns the unit ids a text cites, a range or a pair
// expanded to each id in it, with the line of each.
func unitCitations(text string) map[string][]int {
	ids := map[string][]int{}
	for i, line := range strings.Split(text, "\n") {
		for _, m := range unitID.FindAllStringSubmatch(line, -1) {
			family, rest := m[1], m[3]
			n, _ := strconv.Atoi(m[2])
			nums := []int{n}
			for _, part := range rangePart.FindAllStringSubmatch(rest, -1) {
				k, _ := strconv.Atoi(part[2])
				if part[1] == ".." {
					for j := nums[len(nums)-1] + 1; j <= k; j++ {
						nums = append(nums, j)
					}
				} else {
					nums = append(nums, k)
				}
			}
			for _, k := range nums {
				id := fmt.Sprintf("%s-%d", family, k)
				ids[id] = append(ids[id], i+1)
			}
		}
	}
	return ids
}

func TestUnitCitations(t *testing.T) {
	for text, want := range map[string][]string{
		"(WT-CLONE-3)":                     {"WT-CLONE-3"},
		"WT-CREATE-1..3 and HOOK-EVENTS-5": {"HOOK-EVENTS-5", "WT-CREATE-1", "WT-CREATE-2", "WT-CREATE-3"},
		"CLI-DOCTOR-1/2: the state":        {"CLI-DOCTOR-1", "CLI-DOCTOR-2"},
		"WIKI-STATUS-2/3.":                 {"WIKI-STATUS-2", "WIKI-STATUS-3"},
		"UTF-8, SHA-256, X-Y-1, a-b-3":     nil,
		"the unit ids are NOT-A-UNIT":      nil,
	} {
		var got []string
		for id := range unitCitations(text) {
			got = append(got, id)
		}
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("unitCitations(%q) = %q, want %q", text, got, want)
		}
	}
}

// unitEntry is one entry of the units page.
type unitEntry struct {
	id, anchor, name string
	line             int
	body             string
}

var (
	entryHead = regexp.MustCompile(`(?m)^<a id="([^"]*)"></a>\n### (\S+) — (.+)$`)
	unitHead  = regexp.MustCompile(`(?m)^### .*$`)
	diffItem  = regexp.MustCompile(`(?m)^- \[([^\]]+)\]\(#([^)]+)\): \S`)
)

// parseUnitsPage returns the page's entries, in order, and the ids its
// list of differences names with their anchors.
func parseUnitsPage(t *testing.T, text string) ([]unitEntry, map[string]string) {
	t.Helper()
	var entries []unitEntry
	heads := entryHead.FindAllStringSubmatchIndex(text, -1)
	if n := len(unitHead.FindAllString(text, -1)); n != len(heads) {
		t.Errorf("%s: %d headings of level 3, %d of them entries: each entry is an anchor line <a id=\"<id in lower case>\"></a> and then ### <ID> — <name>", unitsPage, n, len(heads))
	}
	for i, h := range heads {
		end := len(text)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		if j := strings.Index(text[h[1]:end], "\n## "); j >= 0 {
			end = h[1] + j
		}
		entries = append(entries, unitEntry{
			anchor: text[h[2]:h[3]], id: text[h[4]:h[5]], name: text[h[6]:h[7]],
			line: strings.Count(text[:h[0]], "\n") + 2, body: text[h[1]:end],
		})
	}
	diffs := map[string]string{}
	start := strings.Index(text, "\n## Where magehook differs\n")
	if start < 0 {
		t.Errorf("%s has no section \"## Where magehook differs\"", unitsPage)
		return entries, diffs
	}
	section := text[start+1:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	for _, m := range diffItem.FindAllStringSubmatch(section, -1) {
		diffs[m[1]] = m[2]
	}
	return entries, diffs
}

// trackedTexts returns the tracked .go, .txtar and .md files, by path
// relative to the repository; outside a git checkout, every such file
// under the module.
func trackedTexts(t *testing.T) []string {
	t.Helper()
	keep := func(p string) bool {
		return strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".txtar") || strings.HasSuffix(p, ".md")
	}
	var files []string
	if out, err := exec.Command("git", "ls-files", "-z").Output(); err == nil {
		for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			if keep(p) {
				files = append(files, p)
			}
		}
		return files
	}
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.IsDir() && keep(p):
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	return files
}

var (
	backticked = regexp.MustCompile("`([^`\n]+)`")
	testName   = regexp.MustCompile(`^Test[A-Z0-9]\w*$`)
	repoPath   = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?$`)
	testFunc   = regexp.MustCompile(`(?m)^func (Test[A-Z0-9]\w*)\(`)
	unitsLink  = regexp.MustCompile(`units\.md#([a-z0-9_-]+)`)
	pageLink   = regexp.MustCompile(`\]\(#([^)]+)\)`)
	anyHeading = regexp.MustCompile(`(?m)^##+ (.+)$`)
)

// TestUnitsPage: every FuguBench unit id cited in a tracked .go, .txtar or
// .md file has an entry in docs/units.md, and every entry there is cited;
// each entry says what the unit requires, where magehook does it and which
// tests hold it, and the paths and tests it names exist; the page's list
// of differences names exactly the entries with a Differs paragraph.
func TestUnitsPage(t *testing.T) {
	data, err := os.ReadFile(unitsPage)
	if err != nil {
		t.Fatalf("%v: the units page is where each cited unit id is explained", err)
	}
	page := string(data)
	entries, diffs := parseUnitsPage(t, page)

	files := trackedTexts(t)
	cited := map[string][]string{} // id -> "file:line"
	var links [][2]string          // a file and the anchor of the page it links
	tests := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // deleted in the work tree
		}
		if strings.HasSuffix(f, "_test.go") {
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				tests[m[1]] = true
			}
		}
		if f == unitsPage || f == "units_doc_test.go" { // the page itself, and this test's examples
			continue
		}
		if strings.HasSuffix(f, ".md") {
			for _, m := range unitsLink.FindAllStringSubmatch(string(b), -1) {
				links = append(links, [2]string{f, m[1]})
			}
		}
		for id, lines := range unitCitations(string(b)) {
			for _, l := range lines {
				cited[id] = append(cited[id], fmt.Sprintf("%s:%d", f, l))
			}
		}
	}
	if len(cited) == 0 {
		t.Fatal("no file cites a unit id: the scan found nothing to check")
	}

	have := map[string]unitEntry{}
	for _, e := range entries {
		where := fmt.Sprintf("%s:%d: %s", unitsPage, e.line, e.id)
		if !unitID.MatchString(e.id) || unitID.FindString(e.id) != e.id {
			t.Errorf("%s: the heading's id is not a unit id", where)
		}
		if e.anchor != strings.ToLower(e.id) {
			t.Errorf("%s: the anchor is %q; make it %q, so #%s links to it", where, e.anchor, strings.ToLower(e.id), strings.ToLower(e.id))
		}
		if _, dup := have[e.id]; dup {
			t.Errorf("%s: a second entry for the id", where)
		}
		have[e.id] = e
		for _, part := range []string{"**Requires.**", "**In magehook.**", "**Tested by.**"} {
			if !strings.Contains(e.body, "\n"+part+" ") {
				t.Errorf("%s: no paragraph %s", where, part)
			}
		}
		for _, m := range backticked.FindAllStringSubmatch(e.body, -1) {
			tok := m[1]
			switch {
			case testName.MatchString(tok):
				if !tests[tok] {
					t.Errorf("%s names the test %s, which no tracked _test.go declares", where, tok)
				}
			case repoPath.MatchString(tok) && isRepoPath(tok):
				if _, err := os.Stat(strings.TrimSuffix(tok, "/")); err != nil {
					t.Errorf("%s names %s, which is not in the repository", where, tok)
				}
			}
		}
		_, listed := diffs[e.id]
		differs := strings.Contains(e.body, "\n**Differs.** ")
		switch {
		case differs && !listed:
			t.Errorf("%s has a Differs paragraph but the list \"Where magehook differs\" does not name it", where)
		case listed && !differs:
			t.Errorf("%s is in the list \"Where magehook differs\" but has no Differs paragraph", where)
		case listed && diffs[e.id] != e.anchor:
			t.Errorf("%s: the list of differences links #%s, not #%s", where, diffs[e.id], e.anchor)
		}
		if len(cited[e.id]) == 0 {
			t.Errorf("%s: no tracked file cites this id; remove the entry", where)
		}
	}
	anchors := map[string]bool{}
	for _, e := range entries {
		anchors[e.anchor] = true
	}
	for _, m := range anyHeading.FindAllStringSubmatch(page, -1) {
		anchors[headingSlug(m[1])] = true
	}
	for _, m := range pageLink.FindAllStringSubmatch(page, -1) {
		if !anchors[m[1]] {
			t.Errorf("%s links #%s, which is no anchor of the page", unitsPage, m[1])
		}
	}
	for _, l := range links {
		if !anchors[l[1]] {
			t.Errorf("%s links %s#%s, which is no anchor of that page", l[0], unitsPage, l[1])
		}
	}
	for id := range diffs {
		if _, ok := have[id]; !ok {
			t.Errorf("%s: the list of differences names %s, which has no entry", unitsPage, id)
		}
	}
	var missing []string
	for id, at := range cited {
		if _, ok := have[id]; !ok {
			missing = append(missing, fmt.Sprintf("%s cites %s", strings.Join(at, ", "), id))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s, which %s has no entry for: add one (what the unit requires, where magehook does it, its tests) or drop the id", m, unitsPage)
	}
}

// isRepoPath reports whether a token an entry quotes names a file of this
// repository: a path under one of its top-level directories, or a Go file
// at its top. Paths of a checkout magehook manages (.claude/settings.json,
// bin/magehook, scratch/) are not.
func isRepoPath(tok string) bool {
	first, _, nested := strings.Cut(tok, "/")
	if !nested {
		return strings.HasSuffix(tok, ".go")
	}
	switch first {
	case "cmd", "docs", "hooks", "internal", "magefiles", "pkg", "schemas", "testdata":
		return true
	}
	return false
}

// headingSlug is the anchor GitHub gives a heading: lower case, spaces to
// dashes, punctuation dropped.
func headingSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
