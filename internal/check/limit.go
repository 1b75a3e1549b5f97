package check

import "io"

// ioLimit reads one byte past the policy's size limit, so that a larger
// file is told apart from one of the limit's size.
func ioLimit(r io.Reader) io.Reader { return io.LimitReader(r, maxPolicyFileSize+1) }
