// Package e2e runs the fleet view end to end: a real OpenTelemetry
// Collector (otlp receiver, file exporter) on 127.0.0.1, several simulated
// machines (each its own HOME, resource attributes and copy of a checkout
// that imports magehook) running the compiled hook binary and its doctor
// with otel.export yes, the real shipper binary sending their spools, and
// go tool mage fleet's reader over what the collector wrote.
package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/magehook/magehook/internal/gittest"
	"github.com/magehook/magehook/otel/internal/collector"
	"github.com/magehook/magehook/otel/ship"
	"github.com/magehook/magehook/pkg/buildinfo"
	"github.com/magehook/magehook/pkg/fleet"
	"github.com/magehook/magehook/pkg/spool"
)

// repoRoot is magehook's checkout (the root module).
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	root, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// machine is one simulated machine: its checkout, its HOME and the
// environment its agent runs hooks in.
type machine struct {
	name, checkout, home string
	env                  []string
}

func (m machine) run(t *testing.T, stdin []byte, name string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = m.checkout
	cmd.Env = m.env
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return 0, out.String()
}

// hook runs one event with a fixture payload moved to the machine's
// checkout.
func (m machine) hook(t *testing.T, event, fixture, session string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "payloads", event, fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	old, _ := p["cwd"].(string)
	p["cwd"], p["session_id"] = m.checkout, session
	if in, ok := p["tool_input"].(map[string]any); ok {
		if f, ok := in["file_path"].(string); ok && old != "" {
			in["file_path"] = strings.Replace(f, old, m.checkout, 1)
		}
	}
	payload, _ := json.Marshal(p)
	target := "hook:" + strings.ToLower(event[:1]) + event[1:]
	code, out := m.run(t, payload, filepath.Join(m.checkout, "bin", "magehook"), target)
	if code != 0 && code != 2 {
		t.Fatalf("%s %s on %s: exit %d\n%s", target, fixture, m.name, code, out)
	}
	return code
}

func (m machine) spool() spool.Spool {
	return spool.Spool{Dir: filepath.Join(m.checkout, ".magehook", "otel")}
}

// spooled are the IDs of every record waiting in the machine's spool.
func (m machine) spooled(t *testing.T) []string {
	t.Helper()
	s := m.spool()
	if err := s.Rotate(); err != nil {
		t.Fatal(err)
	}
	segs, err := s.Segments()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range segs {
		data, _ := s.ReadSegment(g)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			r, err := spool.Parse(line)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func (m machine) ship(t *testing.T, shipper string) (int, string) {
	t.Helper()
	return m.run(t, nil, shipper, "-spool", m.spool().Dir, "-wait")
}

// exported reads every log record of magehook's in the collector's
// output directory, by log.record.uid, with its resource.
type exportedRecord struct {
	res, attrs map[string]any
}

func exported(t *testing.T, dir string) (map[string]exportedRecord, int) {
	t.Helper()
	out := map[string]exportedRecord{}
	dups := 0
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var req struct {
				ResourceLogs []struct {
					Resource struct {
						Attributes []kv `json:"attributes"`
					} `json:"resource"`
					ScopeLogs []struct {
						LogRecords []struct {
							Attributes []kv `json:"attributes"`
						} `json:"logRecords"`
					} `json:"scopeLogs"`
				} `json:"resourceLogs"`
			}
			if err := json.Unmarshal(line, &req); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, rl := range req.ResourceLogs {
				res := kvs(rl.Resource.Attributes)
				for _, sl := range rl.ScopeLogs {
					for _, lr := range sl.LogRecords {
						attrs := kvs(lr.Attributes)
						uid, _ := attrs["log.record.uid"].(string)
						if _, seen := out[uid]; seen {
							dups++
						}
						out[uid] = exportedRecord{res, attrs}
					}
				}
			}
		}
	}
	return out, dups
}

type kv struct {
	Key   string         `json:"key"`
	Value map[string]any `json:"value"`
}

func kvs(list []kv) map[string]any {
	m := map[string]any{}
	for _, a := range list {
		for _, v := range a.Value {
			m[a.Key] = v
		}
	}
	return m
}

// waitFor polls until ok holds, bounded by the test's deadline (or 2
// minutes): the collector's file exporter flushes on its own schedule.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline, has := t.Deadline()
	if !has {
		deadline = time.Now().Add(2 * time.Minute)
	}
	for !ok() {
		if time.Now().After(deadline.Add(-10 * time.Second)) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFleetEndToEnd(t *testing.T) {
	gittest.Isolate(t)
	ctx := context.Background()
	src := gittest.PluginRepo(t, "hook.enable branchguard\nhook.enable auditlog\notel.export yes\n")
	var log bytes.Buffer
	if err := buildinfo.Build(ctx, src, filepath.Join(src, "bin", "magehook"), &log); err != nil {
		t.Fatalf("build the hook binary: %v\n%s", err, log.String())
	}
	shipper := filepath.Join(t.TempDir(), spool.ShipperName)
	build := exec.Command("go", "build", "-o", shipper, "./cmd/magehook-ship")
	build.Dir = filepath.Join(repoRoot(t), "otel")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the shipper: %v\n%s", err, out)
	}
	install := exec.Command(filepath.Join(src, "bin", "magehook"), "hook:install")
	install.Dir = src
	// A HOME of its own moves the go command's caches unless they are named.
	var goEnv []string
	for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
		v, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		goEnv = append(goEnv, k+"="+strings.TrimSpace(string(v)))
	}
	install.Env = append(append(os.Environ(), goEnv...), "HOME="+t.TempDir())
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("hook:install: %v\n%s", err, out)
	}
	gittest.Git(t, src, "add", "-A")
	gittest.Git(t, src, "commit", "-qm", "install")

	out := filepath.Join(t.TempDir(), "collector")
	os.MkdirAll(out, 0o755)
	addr, grpcAddr := freePort(t), freePort(t)
	col, err := collector.Start(ctx, collector.Config{HTTP: addr, GRPC: grpcAddr, Path: filepath.Join(out, "first.json")})
	if err != nil {
		t.Fatal(err)
	}
	running := true
	defer func() {
		if running {
			col.Stop()
		}
	}()

	base := t.TempDir()
	newMachine := func(name string) machine {
		m := machine{name: name, checkout: filepath.Join(base, name, "work"), home: filepath.Join(base, name, "home")}
		os.MkdirAll(filepath.Dir(m.checkout), 0o755)
		if out, err := exec.Command("cp", "-a", src, m.checkout).CombinedOutput(); err != nil {
			t.Fatalf("copy the checkout: %v\n%s", err, out)
		}
		os.MkdirAll(m.home, 0o755)
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "HOME=") && !strings.HasPrefix(e, "OTEL_") && !strings.HasPrefix(e, "CLAUDE") {
				m.env = append(m.env, e)
			}
		}
		m.env = append(append(m.env, goEnv...), "HOME="+m.home, "CLAUDE_PROJECT_DIR="+m.checkout,
			"OTEL_EXPORTER_OTLP_ENDPOINT=http://"+addr, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
			"OTEL_RESOURCE_ATTRIBUTES=host.name="+name+",team.name=platform")
		return m
	}
	writeJSON := func(path string, v any) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		data, _ := json.MarshalIndent(v, "", "  ")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	command := func(cmd string) map[string]any { return map[string]any{"type": "command", "command": cmd} }

	// a: converged, with the shipper beside its hook binary: its hooks
	// start it themselves. b: a hook removed by hand. c: an intentional
	// local hook. d: a stale binary. e: a hook nothing declares.
	a, b, c, d, e := newMachine("machine-a"), newMachine("machine-b"), newMachine("machine-c"), newMachine("machine-d"), newMachine("machine-e")
	data, _ := os.ReadFile(shipper)
	os.WriteFile(filepath.Join(a.checkout, "bin", spool.ShipperName), data, 0o755)
	projectFile := filepath.Join(b.checkout, ".claude", "settings.json")
	var project map[string]any
	pdata, _ := os.ReadFile(projectFile)
	if err := json.Unmarshal(pdata, &project); err != nil {
		t.Fatal(err)
	}
	delete(project["hooks"].(map[string]any), "PreToolUse")
	writeJSON(projectFile, project)
	guard := []any{map[string]any{"matcher": "Bash", "hooks": []any{command("$HOME/.claude/hooks/laptop-guard.sh")}}}
	writeJSON(filepath.Join(c.home, ".claude", "settings.json"), map[string]any{
		"hooks": map[string]any{"PreToolUse": guard}, "_hooks_local": map[string]any{"PreToolUse": guard}})
	// c's agent client is on its PATH (a stand-in that only says its
	// version): the shipper names the harness's version from it.
	clientDir := filepath.Join(c.home, "client")
	os.MkdirAll(clientDir, 0o755)
	os.WriteFile(filepath.Join(clientDir, "claude"), []byte("#!/bin/sh\necho '2.1.328 (Claude Code)'\n"), 0o755)
	for i, e := range c.env {
		if strings.HasPrefix(e, "PATH=") {
			c.env[i] = "PATH=" + clientDir + string(os.PathListSeparator) + e[len("PATH="):]
		}
	}
	f, _ := os.OpenFile(filepath.Join(d.checkout, "magefiles", "magefile.go"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n// edited after the binary was built\n")
	f.Close()
	writeJSON(filepath.Join(e.home, ".claude", "settings.json"), map[string]any{
		"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{command("~/bin/notify.sh")}}}}})

	// e speaks gRPC to the collector; the others http/protobuf.
	for i, v := range e.env {
		switch {
		case strings.HasPrefix(v, "OTEL_EXPORTER_OTLP_ENDPOINT="):
			e.env[i] = "OTEL_EXPORTER_OTLP_ENDPOINT=http://" + grpcAddr
		case strings.HasPrefix(v, "OTEL_EXPORTER_OTLP_PROTOCOL="):
			e.env[i] = "OTEL_EXPORTER_OTLP_PROTOCOL=grpc"
		}
	}
	machines := []machine{a, b, c, d, e}
	for _, m := range machines {
		session := "sess-" + m.name
		m.hook(t, "SessionStart", "startup", session)
		m.hook(t, "PreToolUse", "bash", session)
		m.hook(t, "PreToolUse", "edit", session)
		m.hook(t, "PostToolUse", "bash-success", session)
		m.run(t, nil, filepath.Join(m.checkout, "bin", "magehook"), "doctor", "-startup=false")
	}

	// a's own hooks started its shipper: its session-start drift record
	// reaches the collector without anyone running one.
	waitFor(t, "machine-a's drift record, shipped by the shipper its SessionStart started", func() bool {
		recs, _ := exported(t, out)
		for _, r := range recs {
			if r.res["host.name"] == "machine-a" && r.attrs["magehook.record.kind"] == "drift" {
				return true
			}
		}
		return false
	})

	want := map[string]string{} // uid → machine
	spoolBytes := int64(0)
	for _, m := range machines[1:] {
		for _, id := range m.spooled(t) {
			want[id] = m.name
		}
		segs, _ := m.spool().Segments()
		for _, g := range segs {
			spoolBytes += g.Bytes
		}
		if code, out := m.ship(t, shipper); code != 0 {
			t.Fatalf("ship %s: exit %d\n%s", m.name, code, out)
		}
		if ids := m.spooled(t); len(ids) != 0 {
			t.Errorf("%s's spool still holds %d records after shipping", m.name, len(ids))
		}
	}
	a.hook(t, "SessionEnd", "exit", "sess-machine-a")
	if code, out := a.ship(t, shipper); code != 0 {
		t.Fatalf("ship machine-a: exit %d\n%s", code, out)
	}

	// The collector goes down mid-run: b's records wait in its spool, the
	// shipper fails (exit 1) and loses nothing; once a collector is back
	// they all arrive.
	if err := col.Stop(); err != nil {
		t.Fatal(err)
	}
	running = false
	for i := 0; i < 5; i++ {
		b.hook(t, "PreToolUse", "bash", "sess-machine-b-2")
	}
	if code, msg := b.ship(t, shipper); code != 1 {
		t.Fatalf("shipping to a stopped collector: exit %d, want 1\n%s", code, msg)
	}
	waiting := b.spooled(t)
	if len(waiting) != 5 { // five calls, a call record each (branchguard lets the command run: no decision)
		t.Fatalf("%d records wait in b's spool after the failed shipment, want the 5 it could not send", len(waiting))
	}
	for _, id := range waiting {
		want[id] = b.name
	}
	col, err = collector.Start(ctx, collector.Config{HTTP: addr, GRPC: grpcAddr, Path: filepath.Join(out, "second.json")})
	if err != nil {
		t.Fatal(err)
	}
	running = true
	if code, msg := b.ship(t, shipper); code != 0 {
		t.Fatalf("shipping once the collector is back: exit %d\n%s", code, msg)
	}
	if err := col.Stop(); err != nil {
		t.Fatal(err)
	}
	running = false

	got, dups := exported(t, out)
	jsonBytes := int64(0)
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			jsonBytes += info.Size()
		}
	}
	// The figures docs/fleet.md's sizing uses: records per session of
	// this script (SessionStart, 2 PreToolUse, PostToolUse, doctor) and
	// their size in the spool and in the collector's OTLP JSON (logs and
	// metrics together).
	protoBytes, gzBytes, logRecords := wire(t, out)
	t.Logf("measure: the logs as OTLP protobuf: %d log records, %d bytes (%d a record), %d gzipped (%d a record)",
		logRecords, protoBytes, protoBytes/max(logRecords, 1), gzBytes, gzBytes/max(logRecords, 1))
	t.Logf("measure: %d records from 4 machines' spools, %d spool bytes (%d a record); %d records exported in all, %d bytes of OTLP JSON (%d a record, metrics included)",
		len(want)-len(waiting), spoolBytes, spoolBytes/int64(max(len(want)-len(waiting), 1)), len(got), jsonBytes, jsonBytes/int64(max(len(got), 1)))
	for id, name := range want {
		r, ok := got[id]
		if !ok {
			t.Errorf("record %s of %s never reached the collector", id, name)
			continue
		}
		wantRes := map[string]any{"host.name": name, "team.name": "platform", "service.name": "magehook", "magehook.harness": "claude"}
		switch {
		case r.attrs["magehook.drift.source"] == "doctor":
			delete(wantRes, "magehook.harness") // the doctor is no harness's
		case name == "machine-c":
			wantRes["magehook.harness.version"] = "2.1.328"
		}
		for k, v := range wantRes {
			if r.res[k] != v {
				t.Errorf("record %s: resource %s = %v, want %v", id, k, r.res[k], v)
			}
		}
		if r.res["magehook.checkout"] != filepath.Join(base, name, "work") {
			t.Errorf("record %s: magehook.checkout = %v", id, r.res["magehook.checkout"])
		}
		if h, _ := r.res["magehook.binary.hash"].(string); h == "" {
			t.Errorf("record %s: no binary hash in %v", id, r.res)
		}
	}
	if dups != 0 {
		t.Errorf("%d records arrived twice", dups)
	}
	// Every attribute exported is in the documented schema.
	known := map[string]bool{"team.name": true} // the test's OTEL_RESOURCE_ATTRIBUTES
	for _, a := range ship.Schema() {
		known[a.Name] = true
	}
	for _, r := range got {
		for _, m := range []map[string]any{r.res, r.attrs} {
			for k := range m {
				if !known[k] {
					t.Errorf("attribute %s is exported and not in ship.Schema (docs/fleet.md)", k)
					known[k] = true
				}
			}
		}
	}

	if dir := os.Getenv("MAGEHOOK_FLEET_CAPTURE"); dir != "" {
		// pkg/fleet's fixtures are this output, captured.
		for _, f := range files {
			data, _ := os.ReadFile(f)
			os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644)
		}
	}
	rep, err := fleet.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	var drifted []string
	for _, c := range rep.Checkouts {
		if c.Drifted {
			drifted = append(drifted, c.Machine)
		}
	}
	sort.Strings(drifted)
	if fmt.Sprint(drifted) != "[machine-b machine-d machine-e]" {
		var text bytes.Buffer
		fleet.WriteText(&text, rep)
		t.Errorf("drifted machines %v, want [machine-b machine-d machine-e]\n%s", drifted, text.String())
	}
	code, text := a.run(t, nil, filepath.Join(a.checkout, "bin", "magehook"), "fleet", out)
	if code != 3 {
		t.Errorf("fleet: exit %d, want 3\n%s", code, text)
	}
	t.Logf("fleet:\n%s", text)
	for _, wantText := range []string{
		"machine-b " + b.checkout + ": DRIFTED", "project: -PreToolUse magehook",
		"machine-c " + c.checkout + ": converged", "harnesses claude 2.1.328", "~PreToolUse[Bash] laptop-guard.sh",
		"machine-d " + d.checkout + ": DRIFTED", "binary: stale",
		"machine-e " + e.checkout + ": DRIFTED", "+Stop notify.sh",
	} {
		if !strings.Contains(text, wantText) {
			t.Errorf("fleet's text lacks %q", wantText)
		}
	}
}

// wire is what the collector's log requests weigh on the wire: each line
// of its JSON output read back with the collector's own pdata and
// marshalled as OTLP protobuf, plain and gzipped.
func wire(t *testing.T, dir string) (protoBytes, gzBytes, records int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			if !bytes.Contains(line, []byte(`"resourceLogs"`)) {
				continue
			}
			logs, err := (&plog.JSONUnmarshaler{}).UnmarshalLogs(line)
			if err != nil {
				t.Fatal(err)
			}
			b, err := (&plog.ProtoMarshaler{}).MarshalLogs(logs)
			if err != nil {
				t.Fatal(err)
			}
			protoBytes += len(b)
			records += logs.LogRecordCount()
			var gz bytes.Buffer
			w := gzip.NewWriter(&gz)
			w.Write(b)
			w.Close()
			gzBytes += gz.Len() // one request, gzipped as the exporter would
		}
	}
	return protoBytes, gzBytes, records
}
