package secretguard

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/magehook/magehook/pkg/glob"
	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/realpath"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// rule is one kind of secret file: a glob (secretguard.path syntax) and
// what it is, for the deny reason; tokens, when set, make the file a secret
// only when it holds one of them (an .npmrc without a token is not).
type rule struct {
	glob, what string
	tokens     []string
}

// defaults are the built-in secret files, lower case: constant data the
// compiler lays out statically (nothing runs at start-up).
var defaults = [...]rule{
	{glob: ".env", what: "a dotenv file"},
	{glob: ".env.*", what: "a dotenv file"},
	{glob: "id_rsa", what: "a private key"}, {glob: "id_dsa", what: "a private key"}, {glob: "id_ecdsa", what: "a private key"},
	{glob: "id_ed25519", what: "a private key"}, {glob: "id_ecdsa_sk", what: "a private key"}, {glob: "id_ed25519_sk", what: "a private key"},
	{glob: "*.pem", what: "a key or certificate file"}, {glob: "*.key", what: "a private key"},
	{glob: "*.p12", what: "a key store"}, {glob: "*.pfx", what: "a key store"}, {glob: "*.jks", what: "a key store"},
	{glob: "*.keystore", what: "a key store"}, {glob: "*.ppk", what: "a private key"},
	{glob: ".netrc", what: "a credentials file"}, {glob: "_netrc", what: "a credentials file"},
	{glob: ".pgpass", what: "a credentials file"}, {glob: ".git-credentials", what: "a credentials file"},
	{glob: ".npmrc", what: "an .npmrc holding a token", tokens: []string{"_authtoken", "_auth", "_password"}},
	{glob: ".pypirc", what: "a .pypirc holding a password", tokens: []string{"password"}},
	{glob: ".yarnrc.yml", what: "a .yarnrc.yml holding a token", tokens: []string{"npmauthtoken", "npmauthident"}},
	{glob: "~/.gem/credentials", what: "a credentials file"},
	{glob: "~/.aws/credentials", what: "cloud credentials"},
	{glob: "~/.config/gcloud/**", what: "cloud credentials"},
	{glob: "~/.kube/config", what: "cluster credentials"},
	{glob: "~/.docker/config.json", what: "registry credentials"},
	{glob: "~/.config/gh/hosts.yml", what: "a GitHub token"},
	{glob: "~/.azure/**", what: "cloud credentials"},
	{glob: "~/.gnupg/private-keys-v1.d/**", what: "a private key"},
	{glob: "secrets/**", what: "the checkout's secrets directory"},
	{glob: "/proc/*/environ", what: "a process's environment"},
	{glob: "/proc/*/task/*/environ", what: "a process's environment"},
}

// Defaults returns the built-in secret files' globs and what each is.
func Defaults() (globs, whats []string) {
	for _, r := range defaults {
		globs, whats = append(globs, r.glob), append(whats, r.what)
	}
	return globs, whats
}

// exampleSuffixes mark a dotenv file that documents the names, not the
// values.
var exampleSuffixes = [...]string{".example", ".sample", ".template", ".dist", ".defaults", ".schema"}

// secrets is what is secret for one call.
type secrets struct {
	// root and home are lower case, slash-separated, as the paths
	// matched.
	root, home string
	// extra are secretguard.path's rules, allow secretguard.allow's
	// globs, both lower case.
	extra []rule
	allow []string
	// named are the files the environment names as credentials.
	named []string
}

func loadSecrets(c *hook.Call, home string) (*secrets, error) {
	s := &secrets{home: fold(home)}
	if c.Config != nil {
		s.root = fold(c.Config.Root())
		for _, key := range []string{toolingrc.KeySecretguardPath, toolingrc.KeySecretguardAllow} {
			v, err := c.Config.Get(key)
			if err != nil {
				return nil, err
			}
			for i, g := range v.Values {
				g = unquote(g)
				if !glob.Valid(strings.TrimPrefix(g, "~/")) {
					return nil, fmt.Errorf("%s:%d: %s %q is not a valid glob; write a path pattern such as config/*.secret.json", v.Origins[i].File, v.Origins[i].Line, key, g)
				}
				if key == toolingrc.KeySecretguardPath {
					s.extra = append(s.extra, rule{glob: strings.ToLower(g), what: "a secret file (secretguard.path " + g + ")"})
				} else {
					s.allow = append(s.allow, strings.ToLower(g))
				}
			}
		}
	}
	if c.Getenv != nil {
		for _, k := range []string{"AWS_SHARED_CREDENTIALS_FILE", "KUBECONFIG", "GOOGLE_APPLICATION_CREDENTIALS"} {
			for _, f := range filepath.SplitList(c.Getenv(k)) {
				if filepath.IsAbs(f) {
					s.named = append(s.named, fold(filepath.Clean(f)))
				}
			}
		}
	}
	return s, nil
}

// fold is a path as rules compare it: slash-separated, lower case.
func fold(p string) string { return strings.ToLower(filepath.ToSlash(p)) }

// folded is a path prepared once for every rule: folded, its base name,
// and its parts below the home directory and the root.
type folded struct {
	path, base           string
	inHome, inRoot       string
	underHome, underRoot bool
}

func (s *secrets) prepare(p string) folded {
	f := folded{path: fold(p)}
	f.base = path.Base(f.path)
	if s.home != "" {
		f.inHome, f.underHome = under(f.path, s.home)
	}
	if s.root != "" {
		f.inRoot, f.underRoot = under(f.path, s.root)
	}
	return f
}

// match reports whether a prepared path matches glob g (lower case).
func match(g string, f folded) bool {
	switch {
	case strings.HasPrefix(g, "~/"):
		return f.underHome && glob.Match("/"+g[2:], f.inHome)
	case strings.HasPrefix(g, "/"):
		return glob.Match(g, strings.TrimPrefix(f.path, "/"))
	case strings.HasSuffix(g, "/") && !strings.Contains(g[:len(g)-1], "/"):
		// dir/: everything below a directory of that name, at any depth.
		for _, part := range strings.Split(path.Dir(f.path), "/") {
			if ok, _ := path.Match(g[:len(g)-1], part); ok {
				return true
			}
		}
		return false
	case !strings.Contains(g, "/"):
		ok, _ := path.Match(g, f.base)
		return ok
	}
	return f.underRoot && glob.Match("/"+g, f.inRoot)
}

func under(p, dir string) (string, bool) {
	dir = strings.TrimSuffix(dir, "/")
	if rest, ok := strings.CutPrefix(p, dir+"/"); ok && dir != "" {
		return rest, true
	}
	return "", false
}

// what names the rule that makes the file at the absolute path p a
// secret, or "". p is judged as written and resolved.
func (s *secrets) what(p string) string {
	if p == "" {
		return ""
	}
	w := s.whatAt(filepath.Clean(p))
	if w != "" {
		return w
	}
	if r, err := realpath.Resolve(p); err == nil && r != filepath.Clean(p) {
		if w := s.whatAt(r); w != "" {
			return w + ", through a symbolic link"
		}
	}
	return ""
}

func (s *secrets) whatAt(p string) string {
	f := s.prepare(p)
	for _, a := range s.allow {
		if match(a, f) {
			return ""
		}
	}
	for _, n := range s.named {
		if n == f.path {
			return "a credentials file the environment names"
		}
	}
	for i := range defaults {
		if w := s.judge(&defaults[i], f, p); w != "" {
			return w
		}
	}
	for i := range s.extra {
		if w := s.judge(&s.extra[i], f, p); w != "" {
			return w
		}
	}
	return ""
}

func (s *secrets) judge(r *rule, f folded, p string) string {
	if !match(r.glob, f) || r.glob == ".env.*" && example(f.base) {
		return ""
	}
	if len(r.tokens) > 0 && !holds(p, r.tokens) {
		return ""
	}
	return r.what
}

// example reports whether a dotenv file's name marks it as an example
// (.env.example, .env.local.sample, .env.example.local is not).
func example(base string) bool {
	for _, suf := range exampleSuffixes {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	return false
}

// holds reports whether a file's first 64 KiB hold one of the tokens
// (folded). A file that cannot be read holds none: there is nothing to
// read out of it either.
func holds(p string, tokens []string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	data = bytes.ToLower(data)
	for _, t := range tokens {
		if bytes.Contains(data, []byte(t)) {
			return true
		}
	}
	return false
}

// mentions reports whether a command's text names a secret file (for a
// read whose path is only known at run time).
func (s *secrets) mentions(text string) bool {
	t := strings.ToLower(text)
	for _, w := range [...]string{".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".pem", ".p12", ".pfx", ".key", ".netrc", ".pgpass",
		"credentials", "environ", ".kube", "gcloud", ".docker/config", "hosts.yml", ".npmrc", ".pypirc", "secrets", ".azure", ".gnupg"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	for _, r := range s.extra {
		if lit := literal(r.glob); len(lit) >= 3 && strings.Contains(t, lit) {
			return true
		}
	}
	return false
}

// literal is the longest run of a glob without pattern characters or
// slashes.
func literal(g string) string {
	best := ""
	for _, part := range strings.FieldsFunc(g, func(r rune) bool { return strings.ContainsRune("*?[]{}/~", r) }) {
		if len(part) > len(best) {
			best = part
		}
	}
	return best
}
