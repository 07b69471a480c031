package targets

import (
	"errors"

	"github.com/magehook/magehook/pkg/hook"
	"github.com/magehook/magehook/pkg/safetext"
)

// exitError is an error that carries its exit code, the shape of
// mg.Fatal's: Mage's generated main prints it ("Error: <message>" on
// stderr) and exits with ExitStatus. Mage reads the code with a type
// assertion, not errors.As, so a target returns it unwrapped; mg.Deps and
// mg.ExitStatus find it through wrapping.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string   { return safetext.String(e.err.Error()) }
func (e *exitError) Unwrap() error   { return e.err }
func (e *exitError) ExitStatus() int { return e.code }

// withCode gives err the exit code, unless it already carries one (the
// inner function knew better); nil stays nil.
func withCode(code int, err error) error {
	var e *exitError
	if err == nil || errors.As(err, &e) {
		return err
	}
	return &exitError{code: code, err: err}
}

// failure is an error that exits 1.
func failure(err error) error { return withCode(hook.ExitFail, err) }

// usage is an error of the command line: exit 2.
func usage(err error) error { return withCode(hook.ExitBlock, err) }

// configErr is an error of the configuration: exit 3.
func configErr(err error) error { return withCode(hook.ExitConfig, err) }
