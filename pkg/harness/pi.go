package harness

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/magehook/magehook/pkg/hook"
)

// pi is Pi, the coding agent of @mariozechner/pi-coding-agent (verified
// against 0.73.1). It runs no hook commands: install writes an extension
// (.pi/extensions/magehook.js, see piExtension), which Pi loads at start
// from the start directory's .pi/extensions, with no review. The extension
// runs the hook binary on tool_call (which blocks with {block, reason}; a
// throw blocks too) and tool_result, with a Claude Code shaped payload it
// builds itself from Pi's tools (bash, read, edit, write, grep, find, ls),
// and asks SessionStart once per session for the context it adds to the
// system prompt of each prompt (before_agent_start). Answers are Claude
// Code's.
func pi() Harness {
	return Harness{
		Name:         "pi",
		Client:       "Pi",
		Program:      "pi",
		File:         ".pi/extensions/magehook.js",
		Layout:       Plugin,
		Plugin:       piExtension,
		PluginMarker: piMarker,
		Matchers:     MatchClaude,
		Guarded:      []string{".pi/settings.json"},
		WayOut: "Do the work in a worktree on its own branch: run " + worktreeCreate +
			", then cd into the directory it prints in each bash command and give read, edit and write paths under it.",
		Trust:  "Pi loads every extension of the start directory's .pi/extensions at start, with no review; pi --no-extensions (-ne) loads none, the gates included.",
		events: func() []Name { return same("SessionStart", "PreToolUse", "PostToolUse") },
		render: func(ev hook.Event, r hook.Result, _ string) hook.Answer { return hook.Render(ev, r, hook.Claude) },
	}
}

// piMarker starts the extension magehook writes; a file without it is
// another tool's and is never overwritten.
const piMarker = "// magehook pi extension"

// piExtension is the extension Pi loads from .pi/extensions. It imports
// nothing but node's own modules. Pi's tools map onto Claude Code's
// (bash Bash, read Read, edit Edit, write Write, grep Grep, find Glob, ls
// LS) and their path argument onto file_path; an edit's edits
// [{oldText, newText}] become [{old_string, new_string}], the first of them
// also old_string and new_string. A deny returns {block, reason}, which Pi
// gives the model as the tool's error; an updatedInput is written back
// into the call's input, in Pi's names.
//
// The checkout is the nearest directory holding .git above the session's
// directory, and its binary is built on first need, as the other
// harnesses' commands do (cmd/ensure; at start it also rebuilds a stale
// one). A binary that cannot be built or run — missing, killed, timed
// out, any exit but 0 and 2, an answer without magehook's seal — blocks
// the call of a gated tool, and is reported on stderr for the others.
func piExtension(s PluginSpec) string {
	gated := "null"
	if s.Gated != nil {
		b, _ := json.Marshal(s.Gated)
		gated = string(b)
	}
	return piMarker + `: written by go tool mage hook:install -harness=pi; do not edit.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BINARY = ` + strconv.Quote(strings.ReplaceAll(s.Binary, `\`, "/")) + `;
const ENSURE = "` + EnsurePackage + `";
// The tools a PreToolUse gate watches (null: all of them).
const GATED = ` + gated + `;
const TOOLS = { bash: "Bash", read: "Read", edit: "Edit", write: "Write", grep: "Grep", find: "Glob", ls: "LS" };

const checkout = (dir) => {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
};

// toClaude is a call's input in Claude Code's argument names.
const toClaude = (cwd, input) => {
  const out = { ...(input || {}) };
  if (typeof out.path === "string") {
    out.file_path = path.resolve(cwd, out.path);
    delete out.path;
  }
  if (Array.isArray(out.edits)) {
    out.edits = out.edits.map((e) => ({ old_string: e && e.oldText, new_string: e && e.newText }));
    if (out.edits.length > 0) {
      out.old_string = out.edits[0].old_string;
      out.new_string = out.edits[0].new_string;
    }
  }
  return out;
};

// fromClaude writes an updatedInput back into Pi's call input.
const fromClaude = (input, updated) => {
  for (const [k, v] of Object.entries(updated || {})) {
    if (k === "file_path") input.path = v;
    else if (k === "edits" && Array.isArray(v)) input.edits = v.map((e) => ({ oldText: e.old_string, newText: e.new_string }));
    else if (k !== "old_string" && k !== "new_string") input[k] = v;
  }
};

const text = (content) => (Array.isArray(content) ? content : [])
  .map((c) => (c && c.type === "text" ? c.text : "")).join("");

export default function magehook(pi) {
  let root = "";
  let bin = "";
  let context = "";
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
  const start = (cwd) => {
    if (root) return;
    root = checkout(cwd);
    bin = path.join(root, BINARY);
    ensure(true); // as SessionStart does: build a missing binary, rebuild a stale one
  };
  const run = (target, payload) => {
    if (!fs.existsSync(bin) && !ensure(false)) {
      return { failed: "magehook: " + bin + " is missing and could not be built; " + fix() };
    }
    const r = spawnSync(bin, [target, "-harness=pi"], { input: JSON.stringify(payload), cwd: root,
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
  const gated = (tool) => GATED === null || GATED.includes(TOOLS[tool] || tool);
  const session = (ctx) => (ctx && ctx.sessionManager && ctx.sessionManager.getSessionId && ctx.sessionManager.getSessionId()) || "";
  const base = (ctx, event, e) => ({ session_id: session(ctx), hook_event_name: event, cwd: ctx.cwd,
    tool_name: TOOLS[e.toolName] || e.toolName, tool_use_id: e.toolCallId, tool_input: toClaude(ctx.cwd, e.input) });

  pi.on("session_start", async (_event, ctx) => {
    start(ctx.cwd);
    const r = run("hook:sessionStart", { session_id: session(ctx), cwd: ctx.cwd, hook_event_name: "SessionStart", source: "startup" });
    if (r.failed) { process.stderr.write(r.failed + "\n"); return; }
    const a = answer(r);
    context = a.text || (a.hookSpecificOutput || {}).additionalContext || "";
  });
  pi.on("before_agent_start", async (event) => {
    if (context) return { systemPrompt: event.systemPrompt + "\n\n" + context };
  });
  pi.on("tool_call", async (event, ctx) => {
    start(ctx.cwd);
    const r = run("hook:preToolUse", base(ctx, "PreToolUse", event));
    if (r.failed) {
      if (gated(event.toolName)) return { block: true, reason: r.failed + " (the gate fails closed)" };
      process.stderr.write(r.failed + "\n");
      return;
    }
    if (r.status === 2) return { block: true, reason: (r.stderr || "").trim() || "blocked by magehook" };
    const s = answer(r).hookSpecificOutput || {};
    if (s.permissionDecision === "deny") return { block: true, reason: s.permissionDecisionReason || "denied by magehook" };
    if (s.updatedInput && (s.permissionDecision === "allow" || s.permissionDecision === "ask")) fromClaude(event.input, s.updatedInput);
  });
  pi.on("tool_result", async (event, ctx) => {
    start(ctx.cwd);
    const out = text(event.content);
    const r = run("hook:postToolUse", { ...base(ctx, "PostToolUse", event),
      tool_response: event.isError ? "Error: " + out : { output: out, details: event.details } });
    if (r.failed) process.stderr.write(r.failed + "\n");
  });
}
`
}
