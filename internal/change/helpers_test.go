package change

import "github.com/errtrack/errtrack/internal/rotation"

// testChecks are the words a group change's tests check with, as the
// rotation's do (changetest has them for the packages above change).
var testChecks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}
