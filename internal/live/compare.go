package live

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Compare writes to w how the captures of one client version (dir new)
// differ from another's (dir old), both laid out as the live suite writes
// them (<Event>/<case>.json and answers/<scenario>.txt): cases that
// appeared or went, top-level fields added or removed and fields whose
// JSON type changed, and answer lines that changed. It reports whether
// anything differs.
func Compare(w io.Writer, old, new string) (bool, error) {
	oldCases, err := cases(old)
	if err != nil {
		return false, err
	}
	newCases, err := cases(new)
	if err != nil {
		return false, err
	}
	differs := false
	say := func(format string, args ...any) {
		differs = true
		fmt.Fprintf(w, format+"\n", args...)
	}
	for _, name := range union(oldCases, newCases) {
		o, inOld := oldCases[name]
		n, inNew := newCases[name]
		switch {
		case !inOld:
			say("payload %s: new (fields %s)", name, strings.Join(sortedKeys(n), ", "))
		case !inNew:
			say("payload %s: no longer seen", name)
		default:
			for _, k := range union(o, n) {
				switch ot, nt := o[k], n[k]; {
				case ot == "":
					say("payload %s: new field %s (%s)", name, k, nt)
				case nt == "":
					say("payload %s: field %s gone", name, k)
				case ot != nt:
					say("payload %s: field %s was %s, is %s", name, k, ot, nt)
				}
			}
		}
	}
	oldAns, _ := filepath.Glob(filepath.Join(old, "answers", "*.txt"))
	newAns, _ := filepath.Glob(filepath.Join(new, "answers", "*.txt"))
	scenarios := map[string]bool{}
	for _, f := range append(oldAns, newAns...) {
		scenarios[filepath.Base(f)] = true
	}
	for _, sc := range sortedKeys(scenarios) {
		o := lines(filepath.Join(old, "answers", sc))
		n := lines(filepath.Join(new, "answers", sc))
		for _, l := range union(o, n) {
			switch {
			case !o[l]:
				say("answers %s: + %s", strings.TrimSuffix(sc, ".txt"), l)
			case !n[l]:
				say("answers %s: - %s", strings.TrimSuffix(sc, ".txt"), l)
			}
		}
	}
	return differs, nil
}

// cases reads every <Event>/<case>.json under dir as its top-level field
// names and their JSON types.
func cases(dir string) (map[string]map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var obj map[string]any
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		fields := map[string]string{}
		for k, v := range obj {
			fields[k] = jsonType(v)
		}
		rel, _ := filepath.Rel(dir, f)
		out[strings.TrimSuffix(filepath.ToSlash(rel), ".json")] = fields
	}
	return out, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func lines(path string) map[string]bool {
	data, _ := os.ReadFile(path)
	out := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out[l] = true
		}
	}
	return out
}

func union[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	return sortedKeys(seen)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SetVersion rewrites the pinned-versions file at path with client's
// version changed, keeping every other byte.
func SetVersion(path, client, version string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if _, err := ParseClients(data); err != nil {
		return err
	}
	var out []string
	found := false
	for _, line := range strings.SplitAfter(string(data), "\n") {
		f := strings.Fields(strings.SplitN(line, "#", 2)[0])
		if len(f) == 4 && f[0] == client {
			i := strings.Index(line, f[2])
			line = line[:i] + version + line[i+len(f[2]):]
			found = true
		}
		out = append(out, line)
	}
	if !found {
		return fmt.Errorf("%s: no client %q", path, client)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(out, "")), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
