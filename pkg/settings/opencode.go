package settings

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// openCodeMarker starts the plugin file magehook writes; a file without it
// is another tool's and is never overwritten.
const openCodeMarker = "// magehook opencode plugin"

// OpenCodePlugin is the plugin OpenCode loads from .opencode/plugins: on
// each tool call it runs the checkout's hook binary with a Claude Code
// shaped payload on stdin and applies the answer (a deny throws, which is
// how an OpenCode plugin blocks; an updatedInput is merged into the args).
// A binary that cannot run blocks the call: the gate fails closed.
func OpenCodePlugin(binary string) string {
	return openCodeMarker + `: written by go tool mage hook:install -harness=opencode; do not edit.
import { spawnSync } from "node:child_process";
import path from "node:path";

const BINARY = ` + strconv.Quote(strings.ReplaceAll(binary, `\`, "/")) + `;
const TOOLS = { bash: "Bash", edit: "Edit", write: "Write", read: "Read", glob: "Glob", grep: "Grep",
  list: "LS", webfetch: "WebFetch", task: "Agent", patch: "Edit", todowrite: "TodoWrite" };
const FIELDS = { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" };

const rename = (args, map) =>
  Object.fromEntries(Object.entries(args || {}).map(([k, v]) => [map[k] || k, v]));
const back = Object.fromEntries(Object.entries(FIELDS).map(([k, v]) => [v, k]));

export const MagehookPlugin = async ({ directory, worktree }) => {
  const bin = path.join(worktree || directory, BINARY);
  const calls = new Map();
  const run = (target, payload) => {
    const r = spawnSync(bin, [target, "-harness=opencode"],
      { input: JSON.stringify(payload), cwd: directory, encoding: "utf8", timeout: 30000 });
    if (r.error) throw new Error("magehook: " + bin + ": " + r.error.message);
    return r;
  };
  const specific = (r) => {
    if (r.status === 2) throw new Error((r.stderr || "").trim() || "blocked by magehook");
    const out = (r.stdout || "").trim();
    if (!out.startsWith("{")) return {};
    try { return JSON.parse(out).hookSpecificOutput || {}; } catch { return {}; }
  };
  const base = (input, event) => ({ session_id: input.sessionID, cwd: directory, hook_event_name: event,
    tool_name: TOOLS[input.tool] || input.tool, tool_use_id: input.callID });
  return {
    "tool.execute.before": async (input, output) => {
      const toolInput = rename(output.args, FIELDS);
      calls.set(input.callID, toolInput);
      const s = specific(run("hook:preToolUse", { ...base(input, "PreToolUse"), tool_input: toolInput }));
      if (s.permissionDecision === "deny") throw new Error(s.permissionDecisionReason || "denied by magehook");
      if (s.updatedInput && (s.permissionDecision === "allow" || s.permissionDecision === "ask")) {
        Object.assign(output.args, rename(s.updatedInput, back));
      }
    },
    "tool.execute.after": async (input, output) => {
      const toolInput = calls.get(input.callID) || {};
      calls.delete(input.callID);
      run("hook:postToolUse", { ...base(input, "PostToolUse"), tool_input: toolInput,
        tool_response: { title: output.title, output: output.output, metadata: output.metadata } });
    },
  };
};
`
}

// EditOpenCodePlugin returns the plugin file's new bytes: the plugin on
// install, nothing (removal) on uninstall. A file magehook did not write
// is refused.
func EditOpenCodePlugin(old []byte, binary string, install bool) ([]byte, error) {
	if old != nil && !strings.HasPrefix(string(old), openCodeMarker) {
		return nil, errors.New("it exists and magehook did not write it; move it aside or merge the plugin by hand")
	}
	if !install {
		return nil, nil
	}
	return []byte(OpenCodePlugin(binary)), nil
}

// OpenCodeDrift compares an installed plugin with the one install writes.
func OpenCodeDrift(data []byte, binary string) string {
	switch {
	case !strings.HasPrefix(string(data), openCodeMarker):
		return "not magehook's plugin"
	case string(data) != OpenCodePlugin(binary):
		return fmt.Sprintf("differs from hook install -harness=opencode")
	}
	return ""
}
