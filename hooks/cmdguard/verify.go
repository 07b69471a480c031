package cmdguard

import (
	"fmt"
	"os"

	"github.com/magehook/magehook/pkg/gitcmd"
	"github.com/magehook/magehook/pkg/regfile"
	"github.com/magehook/magehook/pkg/toolingrc"
)

// Verify runs every rule's examples (built-in and the repository's, those
// switched off included) through the matching cmdguard uses, in the
// checkout root, and returns one line per problem: a deny example the rule
// lets through, an allow example it denies, a repository rule without a
// deny example, or a configuration that does not load. State classes
// ({dirty}) are taken to hold, and deploy.ceiling is staging when unset.
func Verify(cfg *toolingrc.Config) []string {
	set, err := Load(cfg)
	if err != nil {
		return []string{err.Error()}
	}
	past := set.past
	if past == nil {
		past = []string{"production"}
	}
	home := os.Getenv("HOME")
	var problems []string
	for _, r := range set.all {
		where := "built-in rule " + r.Name
		if r.Where != "" {
			where = r.Where + ": rule " + r.Name
		}
		if len(r.Deny) == 0 {
			problems = append(problems, where+": no deny example; add cmdguard.deny "+r.Name+" <a command it must deny>")
		}
		for _, ex := range r.Deny {
			if ok, err := r.Matches(ex, cfg.Root(), home, past); err != nil {
				problems = append(problems, fmt.Sprintf("%s: deny example %q: %v", where, ex, err))
			} else if !ok {
				problems = append(problems, fmt.Sprintf("%s: lets through its deny example %q", where, ex))
			}
		}
		for _, ex := range r.Allow {
			if ok, err := r.Matches(ex, cfg.Root(), home, past); err != nil {
				problems = append(problems, fmt.Sprintf("%s: allow example %q: %v", where, ex, err))
			} else if ok {
				problems = append(problems, fmt.Sprintf("%s: denies its allow example %q", where, ex))
			}
		}
	}
	return problems
}

// Matches reports whether the rule matches some command of the Bash
// command line, analysed in dir, with state classes taken to hold.
func (r Rule) Matches(command, dir, home string, past []string) (bool, error) {
	a, err := gitcmd.Analyze(command, gitcmd.Options{Dir: dir, Home: home, Getenv: os.Getenv, ReadFile: regfile.Reader(regfile.MaxText), Stat: os.Stat})
	if err != nil {
		return false, err
	}
	w := &world{a: a, home: home, checkout: dir, past: past, assume: true}
	for _, v := range views(a, command) {
		ok, _, err := r.parsed.match(v, w)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
