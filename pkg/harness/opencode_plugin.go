package harness

import (
	"encoding/json"
	"strconv"
	"strings"
)

// openCodeMarker starts the plugin file magehook writes; a file without it
// is another tool's and is never overwritten.
const openCodeMarker = "// magehook opencode plugin"

// pluginMarker is the marker of OpenCode's plugin as a client descending
// from OpenCode loads it (Kilo Code): "// magehook <name> plugin".
func pluginMarker(name string) string { return "// magehook " + name + " plugin" }

// openCodePluginFor is openCodePlugin for a client that loads OpenCode's
// plugins (Kilo Code): the same program, marked as that harness's and
// running the binary with its -harness= name.
func openCodePluginFor(name string) func(PluginSpec) string {
	return func(s PluginSpec) string {
		return strings.NewReplacer(openCodeMarker, pluginMarker(name),
			"-harness=opencode", "-harness="+name).Replace(openCodePlugin(s))
	}
}

// openCodePlugin is the plugin OpenCode loads from .opencode/plugins. It
// imports nothing but node's own modules. On each tool call it runs the
// checkout's hook binary with a Claude Code shaped payload on stdin and
// applies the answer (a deny throws, which is how an OpenCode plugin
// blocks; an updatedInput is merged into the args); the SessionStart
// answer's context joins the system prompt of every model call of the
// session (experimental.chat.system.transform: OpenCode 1.18 has no
// session-start hook that reaches the model).
//
// The checkout is the nearest directory holding .git above the session's
// directory (a linked worktree's own), and its binary is built on first
// need, as the commands of the other harnesses do (cmd/ensure; at plugin
// start it also rebuilds a stale one). A binary that cannot be built or
// run — missing, killed, timed out, any exit but 0 and 2 — denies the
// call of a gated tool, and is reported on stderr for the others.
func openCodePlugin(s PluginSpec) string {
	gated := "null"
	if s.Gated != nil {
		b, _ := json.Marshal(s.Gated)
		gated = string(b)
	}
	return openCodeMarker + `: written by go tool mage hook:install -harness=opencode; do not edit.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BINARY = ` + strconv.Quote(strings.ReplaceAll(s.Binary, `\`, "/")) + `;
const ENSURE = "` + EnsurePackage + `";
// The tools a PreToolUse gate watches (null: all of them).
const GATED = ` + gated + `;
const TOOLS = { bash: "Bash", edit: "Edit", write: "Write", read: "Read", glob: "Glob", grep: "Grep",
  list: "LS", webfetch: "WebFetch", task: "Agent", todowrite: "TodoWrite" };
// apply_patch ({patchText}, offered to gpt-* models) is mapped by the binary.
const EDITS = { apply_patch: "Edit", patch: "Edit", multiedit: "Edit" };
const FIELDS = { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" };

const rename = (args, map) =>
  Object.fromEntries(Object.entries(args || {}).map(([k, v]) => [map[k] || k, v]));
const back = Object.fromEntries(Object.entries(FIELDS).map(([k, v]) => [v, k]));

const checkout = (dir) => {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
};

export const MagehookPlugin = async ({ directory }) => {
  const root = checkout(directory);
  let bin = path.join(root, BINARY);
  const calls = new Map();
  const contexts = new Map();
  const mod = () => fs.existsSync(path.join(root, "magefiles", "go.mod")) ? path.join(root, "magefiles") : root;
  // The fix as it runs in this checkout: go tool mage where the tool line is.
  const fix = () => "run go -C '" + mod() + "' tool mage -w '" + root + "' hook:build";
  const ensure = (fresh) => {
    const r = spawnSync("go", ["-C", mod(), "run", ENSURE, fresh ? "-fresh" : "-timeout=25s", BINARY],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30000 });
    if (r.stderr) process.stderr.write(r.stderr);
    if (r.status === 0 && (r.stdout || "").trim()) bin = r.stdout.trim();
    return fs.existsSync(bin);
  };
  ensure(true); // as SessionStart does: build a missing binary, rebuild a stale one
  const run = (target, payload) => {
    if (!fs.existsSync(bin) && !ensure(false)) {
      return { failed: "magehook: " + bin + " is missing and could not be built; " + fix() };
    }
    const r = spawnSync(bin, [target, "-harness=opencode"], { input: JSON.stringify(payload), cwd: root,
      encoding: "utf8", timeout: 30000, env: { ...process.env, ` + SealEnv + `: String(process.pid) } });
    const stderr = (r.stderr || "").trim();
    if (r.error) return { failed: "magehook: " + bin + ": " + r.error.message };
    if (r.signal) return { failed: "magehook: " + bin + " was killed by " + r.signal + (stderr ? ": " + stderr : "") };
    // Only magehook's binary seals its answer (` + SealEnv + `): any other code is a failure.
    if (r.status < ` + strconv.Itoa(SealBase) + ` || r.status >= ` + strconv.Itoa(SealBase+20) + `) {
      return { failed: "magehook: " + bin + " answered without magehook's seal (exit " + r.status +
        ": not magehook's hook binary, or one built before this install); " + fix() + (stderr ? ": " + stderr : "") };
    }
    r.status -= ` + strconv.Itoa(SealBase) + `;
    if (r.status !== 0 && r.status !== 2) return { failed: stderr || "magehook: " + bin + " exited " + r.status };
    if (stderr) process.stderr.write(stderr + "\n");
    return r;
  };
  const answer = (r) => {
    const out = (r.stdout || "").trim();
    if (!out.startsWith("{")) return { text: out };
    try { return JSON.parse(out); } catch { return {}; }
  };
  const gated = (tool) => GATED === null || GATED.includes(TOOLS[tool] || EDITS[tool] || tool);
  const base = (input, event, args) => ({ session_id: input.sessionID, hook_event_name: event,
    cwd: input.tool === "bash" && args && args.workdir ? path.resolve(directory, args.workdir) : directory,
    tool_name: TOOLS[input.tool] || input.tool, tool_use_id: input.callID });
  return {
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID || "";
      if (!contexts.has(id)) {
        const r = run("hook:sessionStart", { session_id: id, cwd: directory, hook_event_name: "SessionStart", source: "startup" });
        let text = "";
        if (r.failed) process.stderr.write(r.failed + "\n");
        else {
          const a = answer(r);
          text = a.text || (a.hookSpecificOutput || {}).additionalContext || "";
        }
        contexts.set(id, text);
      }
      if (contexts.get(id) && output && Array.isArray(output.system)) output.system.push(contexts.get(id));
    },
    "tool.execute.before": async (input, output) => {
      const toolInput = rename(output.args, FIELDS);
      calls.set(input.callID, toolInput);
      const r = run("hook:preToolUse", { ...base(input, "PreToolUse", output.args), tool_input: toolInput });
      if (r.failed) {
        if (gated(input.tool)) throw new Error(r.failed + " (the gate fails closed)");
        process.stderr.write(r.failed + "\n");
        return;
      }
      if (r.status === 2) throw new Error((r.stderr || "").trim() || "blocked by magehook");
      const s = answer(r).hookSpecificOutput || {};
      if (s.permissionDecision === "deny") throw new Error(s.permissionDecisionReason || "denied by magehook");
      if (s.updatedInput && (s.permissionDecision === "allow" || s.permissionDecision === "ask")) {
        Object.assign(output.args, rename(s.updatedInput, back));
      }
    },
    "tool.execute.after": async (input, output) => {
      const toolInput = calls.get(input.callID) || {};
      calls.delete(input.callID);
      const r = run("hook:postToolUse", { ...base(input, "PostToolUse", toolInput), tool_input: toolInput,
        tool_response: { title: output.title, output: output.output, metadata: output.metadata } });
      if (r.failed) process.stderr.write(r.failed + "\n");
    },
  };
};
`
}
