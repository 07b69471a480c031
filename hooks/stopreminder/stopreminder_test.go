package stopreminder_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/magehook/magehook/hooks/stopreminder"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/hooktest"
)

var hs = []hook.Handler{stopreminder.Handler}

func stop(t *testing.T, root string) hooktest.Outcome {
	t.Helper()
	return hooktest.Run(t, hs, root, "Stop", "Stop/stop", map[string]any{"session_id": "sess-1"})
}

func edit(t *testing.T, root, fixture string) {
	t.Helper()
	if out := hooktest.Run(t, hs, root, "PostToolUse", fixture, map[string]any{"session_id": "sess-1"}); out.Code != 0 || out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
}

func TestOnceInASessionThatDidWork(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopreminder")
	if out := stop(t, root); out.Code != 0 || out.Stdout != "" {
		t.Fatalf("a session that changed nothing is not reminded: %+v", out)
	}
	edit(t, root, "PostToolUse/bash-success") // a Bash call that changed no file: not work
	if out := stop(t, root); out.Stdout != "" {
		t.Fatalf("%+v", out)
	}
	edit(t, root, "PostToolUse/edit-success")
	edit(t, root, "PostToolUse/write-success")
	out := stop(t, root)
	want := `{"decision":"block","reason":"` + stopreminder.NotesText + `"}` + "\n"
	if out.Code != 0 || out.Stdout != want {
		t.Fatalf("got %+v\nwant %s", out, want)
	}
	if out := stop(t, root); out.Stdout != "" {
		t.Errorf("the second stop must go through: %+v", out)
	}
	other := hooktest.Run(t, hs, root, "Stop", "Stop/stop", map[string]any{"session_id": "sess-2"})
	if other.Stdout != "" {
		t.Errorf("another session did no work: %+v", other)
	}
}

func TestStopHookActiveNeverBlocks(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopreminder")
	edit(t, root, "PostToolUse/edit-success")
	if out := hooktest.Run(t, hs, root, "Stop", "Stop/active", map[string]any{"session_id": "sess-1"}); out.Stdout != "" {
		t.Errorf("%+v", out)
	}
	if out := stop(t, root); !strings.Contains(out.Stdout, `"decision":"block"`) {
		t.Errorf("a stop while the hook was active does not use up the reminder: %+v", out)
	}
}

func TestParallelStopsRemindOnce(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopreminder")
	edit(t, root, "PostToolUse/multiedit-success")
	var mu sync.Mutex
	blocks := 0
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if strings.Contains(stop(t, root).Stdout, "block") {
				mu.Lock()
				blocks++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if blocks != 1 {
		t.Errorf("%d reminders, want 1", blocks)
	}
}

func TestTheReminderText(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopreminder", "wiki.origin file:///srv/wiki.git")
	edit(t, root, "PostToolUse/edit-success")
	if out := stop(t, root); !strings.Contains(out.Stdout, "wiki:note <page> <file>") {
		t.Errorf("with a learning library: %+v", out)
	}
	root = hooktest.Checkout(t, "hook.enable stopreminder", "stopreminder.text Update NOTES.md with what you learned.")
	edit(t, root, "PostToolUse/edit-success")
	if out := stop(t, root); out.Stdout != `{"decision":"block","reason":"Update NOTES.md with what you learned."}`+"\n" {
		t.Errorf("stopreminder.text: %+v", out)
	}
}

func TestABashCallThatChangedFilesIsWork(t *testing.T) {
	root := hooktest.Checkout(t, "hook.enable stopreminder")
	edit(t, root, "PostToolUse/bash-editdiff") // recorded from Claude Code 2.1.328
	if out := stop(t, root); !strings.Contains(out.Stdout, `"decision":"block"`) {
		t.Errorf("%+v", out)
	}
}
