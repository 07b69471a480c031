//go:build !unix

package toolingrc

// untrusted is "" where file owners are not read (Windows: the ACLs of a
// user's profile keep other users out).
func untrusted(string, int) string { return "" }

func geteuid() int { return -1 }
