// Package live is the live contract suite: the real agent clients, pinned
// and installed from npm, run offline against a scripted model server
// (package internal/live/modelserver), in fresh consumer repositories that
// import the plugin from this working tree. What the clients really send
// and how they take magehook's answers is the project's ground truth.
//
// The package itself is small and light (no net/http): clients.txt lists
// the verified versions, Install puts each into
// ${MAGEHOOK_CLIENTS:-$HOME/.cache/magehook/clients}/<package>@<version>,
// Compare and SetVersion serve live:bump. The repository's magefile
// imports it for the live:install, live:test and live:bump targets, and
// the magefile is also the hook binary.
//
// # The tests
//
// The scenarios are the _test.go files here, one or more per client,
// named Test<Client>... (live:bump runs a client's by that prefix). The
// shared helpers (live_test.go) are:
//
//   - requireClient(t, name): the pinned client, or a one-line skip saying
//     how to install it (go test ./... never needs npm). MAGEHOOK_LIVE=require
//     turns the skip into a failure (live:test, CI); MAGEHOOK_LIVE=off skips.
//   - newConsumer(t, toolingrc): a fresh repository with a bare origin, the
//     plugin imported through a replace, and a private HOME (the client's
//     configuration and the hooks never see the real ~/.claude, ~/.codex,
//     ...). Consumer.Env is the environment to run everything with;
//     Consumer.Install(t, harness) runs hook:install -harness=<name>.
//   - recorderCommand(event): a foreign hook that records each payload and
//     the harness variables into Consumer.Record; Consumer.Records reads
//     them back in order, Of and Fired filter them.
//   - capture(t, client, consumer, scenario, records, runs): under
//     MAGEHOOK_LIVE_CAPTURE=1, writes the payloads into
//     testdata/live/<client>/<version>/<Event>/<case>.json with a
//     PROVENANCE.md, and how each answer was taken into answers/.
//
// To add a client's scenarios, write <client>_test.go: start a
// modelserver.Server with the scripts (tools named as the client names
// them), point the client at Server.URL the way the notes say
// (claude_test.go's claudeEnv is the model), install the recorder in the
// client's user configuration under the private HOME, run the client in
// Consumer.Dir with Consumer.Env plus its variables, and assert on the
// repository (branches, files), on Server.Reached (what reached the model)
// and on the client's own log of each hook's outcome.
package live
