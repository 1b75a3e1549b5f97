//go:build !unix

package ledger

// isReadOnly: other systems report a read-only folder as a permission error.
func isReadOnly(error) bool { return false }
