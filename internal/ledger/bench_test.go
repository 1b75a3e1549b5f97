package ledger

import (
	"fmt"
	"testing"
)

// BenchmarkAppend appends a rotation's records to a ledger already holding
// n rotations: the cost of a record must not grow with n.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{10, 10000} {
		for _, durable := range []bool{false, true} {
			b.Run(fmt.Sprintf("rotations=%d/durable=%v", n, durable), func(b *testing.B) {
				l, err := OpenLedger(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				for i := range n {
					if err := l.Append(rot(fmt.Sprintf("seed-%d", i), int64(i), PhaseDone), false); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for i := range b.N {
					if err := l.Append(rot(fmt.Sprintf("r-%d", i), int64(i), PhaseCreated), durable); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkClaim takes and lets go of a project's claim.
func BenchmarkClaim(b *testing.B) {
	l, err := OpenLedger(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for i := range b.N {
		release, err := l.Claim(ProjectClaim("https://h", int64(i)))
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}

// BenchmarkRefresh reads what others appended when nothing was.
func BenchmarkRefresh(b *testing.B) {
	l, err := OpenLedger(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for range b.N {
		if err := l.Refresh(); err != nil {
			b.Fatal(err)
		}
	}
}
