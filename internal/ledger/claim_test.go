package ledger

import "testing"

// A claim this process let go of is free again for its own probe: a run
// that ended is not taken for one still at the project.
func TestClaimLetGoIsNotHeld(t *testing.T) {
	l := open(t, t.TempDir())
	name := ProjectClaim("https://gitlab.example", 7)
	for range 2 {
		release, err := l.Claim(name)
		if err != nil {
			t.Fatal(err)
		}
		if held, err := l.Held(name); !held || err != nil {
			t.Fatalf("a claim held: held %v, %v", held, err)
		}
		release()
		if held, err := l.Held(name); held || err != nil {
			t.Fatalf("a claim let go of: held %v, %v", held, err)
		}
	}
}
