// Package live holds the pinned agent clients of the live contract suite:
// clients.txt lists the versions verified, Install puts each into a cache
// outside the repository with npm, and the tests in this directory run
// them, offline, against the scripted model server of package
// internal/live/modelserver.
//
// This package stays light (no net/http): the repository's magefile
// imports it for the live:* targets, and the magefile is also the hook
// binary.
package live
