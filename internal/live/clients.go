package live

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ClientsFile is the pinned-versions file, relative to this package.
const ClientsFile = "clients.txt"

//go:embed clients.txt
var clientsTxt []byte

// Client is one pinned agent client: its short name (the -harness name of
// hook:install), its npm package, the verified version and the command its
// package puts under node_modules/.bin — or, for a package that ships its
// binary without a bin entry (Factory's per-platform @factory/cli-linux-x64),
// the binary's path under node_modules, which then holds a slash.
type Client struct {
	Name, Package, Version, Bin string
}

// command is the client's command relative to the install prefix.
func (c Client) command() string {
	if strings.Contains(c.Bin, "/") {
		return filepath.Join("node_modules", filepath.FromSlash(c.Bin))
	}
	return filepath.Join("node_modules", ".bin", c.Bin)
}

// Clients returns the pinned clients in file order.
func Clients() ([]Client, error) { return ParseClients(clientsTxt) }

// ParseClients reads a pinned-versions file: one client per line as
// name, package, version and command, separated by blanks; # starts a
// comment.
func ParseClients(data []byte) ([]Client, error) {
	var out []Client
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want name, package, version and command, got %q", ClientsFile, n, line)
		}
		out = append(out, Client{Name: f[0], Package: f[1], Version: f[2], Bin: f[3]})
	}
	return out, sc.Err()
}

// Lookup returns the pinned client with the given name.
func Lookup(name string) (Client, error) {
	cs, err := Clients()
	if err != nil {
		return Client{}, err
	}
	var names []string
	for _, c := range cs {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	return Client{}, fmt.Errorf("no pinned client %q in %s (have %s)", name, ClientsFile, strings.Join(names, ", "))
}

// CacheDir is where clients are installed: $MAGEHOOK_CLIENTS, or
// $HOME/.cache/magehook/clients. It is outside every repository so that
// an install is shared by checkouts and worktrees and reused across runs.
func CacheDir() string {
	if d := os.Getenv("MAGEHOOK_CLIENTS"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "magehook", "clients")
}

// Dir is the client's install prefix: CacheDir()/<package>@<version>.
func (c Client) Dir() string {
	return filepath.Join(CacheDir(), filepath.FromSlash(c.Package)+"@"+c.Version)
}

// Path is the client's command.
func (c Client) Path() string { return filepath.Join(c.Dir(), c.command()) }

// Installed reports whether the client's command is in the cache.
func (c Client) Installed() bool {
	fi, err := os.Stat(c.Path())
	return err == nil && !fi.IsDir()
}

// String is "name package@version".
func (c Client) String() string { return c.Name + " " + c.Package + "@" + c.Version }

// SkipMessage is the one line a test prints when the client is missing.
func (c Client) SkipMessage() string {
	return fmt.Sprintf("%s is not installed in %s; run `go tool mage live:install` (needs npm) to run the live tests", c, CacheDir())
}

// Install installs the client with npm unless it is already in the cache.
// npm works in a temporary directory beside the final one, which is
// renamed into place only when the command is there: an interrupted
// install leaves nothing a later run would take for a good one.
func Install(ctx context.Context, c Client, stdout, stderr io.Writer) error {
	if c.Installed() {
		fmt.Fprintf(stdout, "%s: already in %s\n", c, c.Dir())
		return nil
	}
	final := c.Dir()
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(final), filepath.Base(final)+".partial-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error",
		"--prefix", tmp, c.Package+"@"+c.Version)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install %s@%s: %w", c.Package, c.Version, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, c.command())); err != nil {
		return fmt.Errorf("npm installed %s@%s but it has no %s", c.Package, c.Version, filepath.ToSlash(c.command()))
	}
	os.RemoveAll(final) // a directory without the command: a broken earlier install
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: installed in %s\n", c, final)
	return nil
}
