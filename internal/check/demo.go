package check

import _ "embed"

// demoPolicy is docs/examples/errtrack.yaml (a test keeps them one): the
// policy the mock's demo group breaks, which errtrack --demo holds its
// projects to.
//
//go:embed demo_policy.yaml
var demoPolicy []byte

// Demo is the demo's policy.
func Demo() *Policy {
	p, err := Parse("docs/examples/errtrack.yaml", demoPolicy)
	if err != nil {
		panic("the demo policy does not parse: " + err.Error()) // a test holds it
	}
	return p
}
