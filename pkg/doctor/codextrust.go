package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/magehook/magehook/pkg/harness"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/settings"
)

// codexTrustFix is what the user does about an untrusted hook.
const codexTrustFix = "start codex in the checkout and approve magehook's hooks in /hooks (a hook Codex has not trusted does not run, and codex exec says nothing)"

// checkCodexTrust reports magehook's Codex hooks that Codex will not run:
// never reviewed, reviewed before they changed, or switched off in
// /hooks. Codex keys its trust by position, "<hooks.json>:<event>:<group>:
// <index>", in $CODEX_HOME/config.toml (hooks.state.<key>.trusted_hash and
// .enabled), and compares the trusted hash with the hook's own
// (harness.CodexTrustHash), which the doctor computes: codex need not be
// on PATH. With codex on PATH its app-server is asked as well, and its
// word is the one reported.
func (d *doctor) checkCodexTrust(path string, got []settings.Placed) {
	home := d.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(d.Home, ".codex")
	}
	config := filepath.Join(home, "config.toml")
	if _, err := os.Stat(config); err != nil {
		// Trust is machine state, like the user scope: CI has none.
		d.add(Skip, "codex trust", config, "%s is absent: Codex has not run on this machine (each user reviews the hooks once in /hooks)", config)
		return
	}
	keys := make([]string, len(got))
	for i, g := range got {
		keys[i] = harness.CodexTrustKey(path, g.Native, g.Group, g.Index)
	}
	if status, err := codexHookStatus(d, filepath.Dir(filepath.Dir(path)), home); err == nil {
		var bad []string
		for _, k := range keys {
			st, ok := status[k]
			switch {
			case !ok:
				bad = append(bad, k+" (not loaded)")
			case st != "trusted":
				bad = append(bad, k+" ("+st+")")
			}
		}
		if len(bad) > 0 {
			d.add(Problem, "codex trust", config, "Codex will not run %d of magehook's hooks: %s; %s", len(bad), strings.Join(bad, ", "), codexTrustFix)
		} else {
			d.add(OK, "codex trust", config, "Codex trusts all %d of magehook's hooks (codex app-server)", len(keys))
		}
		return
	}
	states := codexStates(config)
	var bad []string
	for i, k := range keys {
		st, reviewed := states[k]
		g := got[i]
		switch {
		case reviewed && st.disabled:
			bad = append(bad, k+" (disabled in /hooks)")
		case !reviewed || st.hash == "":
			bad = append(bad, k+" (untrusted)")
		case st.hash != harness.CodexTrustHash(g.Native, g.Matcher, g.Command, g.Timeout):
			bad = append(bad, k+" (modified since it was reviewed)")
		}
	}
	if len(bad) > 0 {
		d.add(Problem, "codex trust", config, "Codex will not run %d of magehook's hooks: %s; %s", len(bad), strings.Join(bad, ", "), codexTrustFix)
		return
	}
	d.add(OK, "codex trust", config, "%s trusts each of magehook's %d hooks as they are now (their hashes match)", config, len(keys))
}

// codexState is one hook's review in config.toml.
type codexState struct {
	hash     string
	disabled bool
}

// codexStates reads the reviews of config.toml by key: the
// [hooks.state."<key>"] tables and hooks.state."<key>".<field> lines
// (trusted_hash, enabled). Only a regular file is read, and at most 16 MiB.
func codexStates(config string) map[string]codexState {
	out := map[string]codexState{}
	data, err := regfile.ReadFile(config, 16<<20)
	if err != nil {
		return out
	}
	set := func(key, field, value string) {
		st := out[key]
		switch field {
		case "trusted_hash":
			st.hash = value
		case "enabled":
			st.disabled = value == "false"
		default:
			return
		}
		out[key] = st
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = ""
			if k, ok := quotedAfter(line, `[hooks.state.`); ok {
				section = k
			}
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.Trim(strings.TrimSpace(value), `"`)
		if section != "" {
			set(section, key, value)
			continue
		}
		for _, field := range []string{"trusted_hash", "enabled"} {
			if strings.HasSuffix(key, "."+field) {
				if k, ok := quotedAfter(strings.TrimSuffix(key, "."+field), `hooks.state.`); ok {
					set(k, field, value)
				}
			}
		}
	}
	return out
}

func quotedAfter(s, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || !strings.HasPrefix(rest, `"`) {
		return "", false
	}
	var k string
	if _, err := fmt.Sscanf(rest, "%q", &k); err != nil {
		return "", false
	}
	return k, true
}

// codexHookStatus asks codex app-server (hooks/list) for the trust status
// of every hook it loads in dir.
func codexHookStatus(d *doctor, dir, home string) (map[string]string, error) {
	bin := d.Getenv("MAGEHOOK_CODEX")
	if bin == "" {
		p, err := d.LookPath("codex")
		if err != nil {
			return nil, err
		}
		bin = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "app-server")
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	cwd, _ := json.Marshal(dir)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"magehook-doctor","version":"1"}}}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"initialized"}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[`+string(cwd)+`]}}`)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []struct {
						Key         string `json:"key"`
						TrustStatus string `json:"trustStatus"`
					} `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID != 2 {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("codex app-server hooks/list: %s", msg.Error)
		}
		status := map[string]string{}
		for _, d := range msg.Result.Data {
			for _, h := range d.Hooks {
				status[h.Key] = h.TrustStatus
			}
		}
		return status, nil
	}
	return nil, fmt.Errorf("codex app-server gave no hooks/list answer")
}
