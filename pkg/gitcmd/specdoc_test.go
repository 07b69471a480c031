package gitcmd

import (
	"strings"
	"testing"
)

// The generated tables hold a row per spec, naming every program and
// cmdlet, and say what each spec says: a program whose writes are not
// modelled is said to fail closed, a wrapper what it runs.
func TestSpecTables(t *testing.T) {
	programs, cmdlets := ProgramTable(), CmdletTable()
	if n := strings.Count(programs, "\n") - 2; n != len(programTable) {
		t.Errorf("the program table has %d rows for %d specs", n, len(programTable))
	}
	if n := strings.Count(cmdlets, "\n") - 2; n != len(cmdletTable) {
		t.Errorf("the cmdlet table has %d rows for %d specs", n, len(cmdletTable))
	}
	for _, s := range programTable {
		for _, n := range s.names {
			if !strings.Contains(programs, "`"+docCell(n)+"`") {
				t.Errorf("%s is not in the program table", n)
			}
		}
	}
	row := func(table, name string) string {
		for _, line := range strings.Split(table, "\n") {
			if strings.HasPrefix(line, "| `"+name+"`") {
				return line
			}
		}
		return ""
	}
	for name, want := range map[string]string{
		"rclone":  "not modelled",
		"timeout": "the command after 1 operand",
		"sort":    "the files of -o --output",
		"grep":    "directories as trees with -r",
	} {
		if r := row(programs, name); !strings.Contains(r, want) {
			t.Errorf("%s's row %q does not say %q", name, r, want)
		}
	}
	if r := row(cmdlets, "remove-item"); !strings.Contains(r, "`rm`, -recurse as `-r`") {
		t.Errorf("Remove-Item's row %q does not say it is rm -r", r)
	}
}
