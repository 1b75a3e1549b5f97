package ledger

// Reading the ledger: its records, one project's, and whether any changed.

// Version is the count of changes seen so far: a plan notes it, and a run
// asks ChangedSince whether another process changed what it planned from.
func (l *Ledger) Version() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

// ChangedSince reads what other processes appended, and reports whether a
// record matching match changed after version v.
func (l *Ledger) ChangedSince(v uint64, match func(Record) bool) (bool, error) {
	changed := false
	err := l.locked(func() error {
		for id, at := range l.changed {
			if at > v && match(l.recs[id]) {
				changed = true
				return nil
			}
		}
		return nil
	})
	return changed, err
}

// Refresh reads what other processes appended since the last read.
func (l *Ledger) Refresh() error {
	return l.locked(func() error { return nil })
}

// Records are the newest state of every rotation and campaign matching
// match (all when nil), in the order they began, as last read.
func (l *Ledger) Records(match func(Record) bool) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Record
	for _, id := range l.order {
		if r := l.recs[id]; match == nil || match(r) {
			out = append(out, r)
		}
	}
	return out
}

// projectKey names a project on a host (its hosturl.Identity).
type projectKey struct {
	host string
	id   int64
}

// ProjectRotations are the newest state of the rotations of a project on
// host matching match (all when nil), in the order they began.
func (l *Ledger) ProjectRotations(host string, projectID int64, match func(Record) bool) []Record {
	return l.projectRecords(KindRotation, host, projectID, match)
}

// ProjectMigrations are the same of a project's migrations to a Sentry.
func (l *Ledger) ProjectMigrations(host string, projectID int64, match func(Record) bool) []Record {
	return l.projectRecords(KindMigration, host, projectID, match)
}

func (l *Ledger) projectRecords(kind, host string, projectID int64, match func(Record) bool) []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Record
	for _, id := range l.byProject[projectKey{l.identity(host), projectID}] {
		if r := l.recs[id]; r.Kind == kind && (match == nil || match(r)) {
			out = append(out, r)
		}
	}
	return out
}

// Get is the newest state of id, as last read.
func (l *Ledger) Get(id string) (Record, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.recs[id]
	return r, ok
}
