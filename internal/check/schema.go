package check

import _ "embed"

// Schema is the policy file's JSON schema, for editors (docs/ holds a copy;
// a test keeps them one).
//
//go:embed schema.json
var Schema []byte
