package gitcmd_test

import (
	"testing"

	"github.com/magehook/magehook/pkg/gitcmd"
)

// typicalCommands is what an agent's Bash calls look like over a session:
// builds and tests, file edits through the shell, archives, searches,
// wrappers and git. BenchmarkAnalyzeSet analyses them all, with the read
// side, as every gate of one hook run would.
var typicalCommands = []string{
	"go build ./... && go test ./... 2>&1 | tail -n 40",
	"cp -r testdata/in /tmp/out && mv /tmp/out/a.txt b.txt",
	"rm -rf build node_modules/.cache",
	"sed -i 's/old/new/g' src/a.go src/b.go",
	"echo done | tee -a log.txt >/dev/null",
	"tar -czf /tmp/src.tgz src && tar -xzf /tmp/src.tgz -C /tmp/x",
	"find . -name '*.orig' -delete",
	"find src -name '*.go' -exec gofmt -w {} +",
	"git ls-files -z | xargs -0 grep -l TODO",
	"timeout 60 env GOFLAGS=-mod=mod nice -n 5 go vet ./...",
	"mkdir -p out && touch out/.keep && chmod 644 out/.keep",
	"grep -rn 'func main' --include='*.go' .",
	"install -m 755 bin/app /usr/local/bin/app",
	"ln -sf ../shared/config.yaml config.yaml",
	"dd if=/dev/zero of=disk.img bs=1M count=4",
	"curl -sSfL -o /tmp/x.tgz https://example.com/x.tgz",
	"rsync -a --delete src/ /tmp/mirror/",
	"sort -u -o names.txt names.txt",
	"git status --short && git diff --stat && git log --oneline -5",
	"git add -A && git commit -m 'fix: x' && git push origin HEAD",
}

func BenchmarkAnalyzeSet(b *testing.B) {
	o := testOptions()
	for b.Loop() {
		for _, c := range typicalCommands {
			a, err := gitcmd.Analyze(c, o)
			if err != nil {
				b.Fatal(err)
			}
			a.Reads()
		}
	}
}
