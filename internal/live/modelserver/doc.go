// Package modelserver is a scripted language model on 127.0.0.1 for the
// live contract suite. It speaks what the real agent clients call:
//
//   - Anthropic Messages: POST /v1/messages (SSE when "stream" is true,
//     plain JSON otherwise), POST /v1/messages/count_tokens, GET /v1/models
//     (Claude Code);
//   - OpenAI Responses: POST /v1/responses, streamed (Codex);
//   - OpenAI Chat Completions: POST /v1/chat/completions, streamed or plain
//     (Copilot CLI, OpenCode);
//   - Gemini: POST /v1beta/models/<model>:streamGenerateContent?alt=sse,
//     :generateContent and :countTokens (Gemini CLI).
//
// A Script drives a conversation: the model's turn number n (the number of
// model turns already in the request's history) answers with Steps[n]:
// the tool calls it makes, or its closing text. The server keeps no state
// between requests, so a client's retry gets the same answer. A request is
// part of a script's conversation when it offers tools and its first user
// turn contains the script's Key; every other request (titles, summaries,
// classifiers, a sub-agent with no script) is a side request and gets a
// harmless answer that never moves a script on.
//
// Every request is logged (Requests): the protocol, the path, whether it
// was a scripted or a side request, the step it got and the body, so a
// test asserts what reached the model: a deny reason inside a tool result,
// added context, a stop hook's message (Texts, Reached).
//
// Adding a client means nothing here when it speaks one of the protocols:
// write internal/live/<client>_test.go with its scenarios, drive the
// client with the Base URL, and use the same Script values; a tool is
// named as the client names it (Bash for Claude Code, shell or
// apply_patch for Codex, run_shell_command for Gemini CLI, bash for
// OpenCode and Copilot CLI). A tool the request declares as a custom
// (free-form) tool, like Codex's apply_patch, gets Input as its raw text.
package modelserver
