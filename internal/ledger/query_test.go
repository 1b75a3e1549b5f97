package ledger

import "testing"

// A project's rotations and migrations are told apart and from other
// projects' and other hosts'; a campaign is no project's.
func TestProjectRotationsAndMigrations(t *testing.T) {
	l := open(t, t.TempDir())
	host := "https://gitlab.example"
	recs := []Record{rot("r1", 1, PhaseCreating), rot("r2", 2, PhaseDone),
		{Kind: KindMigration, ID: "m1", Host: host, ProjectID: 1, Phase: PhaseCreating},
		{Kind: KindCampaign, ID: "c1", Host: host, ProjectID: 1, Phase: CampaignOpen},
		{Kind: KindRotation, ID: "other", Host: "https://other.example", ProjectID: 1, Phase: PhaseCreating}}
	if err := l.AppendAll(recs, false); err != nil {
		t.Fatal(err)
	}
	if got := l.ProjectRotations(host, 1, nil); len(got) != 1 || got[0].ID != "r1" {
		t.Fatalf("project 1's rotations: %+v", got)
	}
	if got := l.ProjectMigrations(host, 1, nil); len(got) != 1 || got[0].ID != "m1" {
		t.Fatalf("project 1's migrations: %+v", got)
	}
	if got := l.ProjectRotations(host, 2, func(r Record) bool { return r.IsOpen() }); len(got) != 0 {
		t.Fatalf("project 2's open rotations: %+v", got)
	}
	if got := l.ProjectRotations(host+"/", 1, nil); len(got) != 1 {
		t.Fatalf("the host with a slash names another: %+v", got)
	}
}

// A run asks whether another process changed what it planned from since
// the version it noted, having already read records: a change after it is
// seen, none before it.
func TestChangedSinceAfterRecordsWereRead(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	if err := a.Append(rot("r1", 1, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(); err != nil {
		t.Fatal(err)
	}
	v := b.Version()
	if changed, err := b.ChangedSince(v, func(Record) bool { return true }); err != nil || changed {
		t.Fatalf("nothing changed, yet: %v %v", changed, err)
	}
	if err := a.Append(rot("r1", 1, PhaseCreated), true); err != nil {
		t.Fatal(err)
	}
	if changed, err := b.ChangedSince(v, func(r Record) bool { return r.ID == "r1" }); err != nil || !changed {
		t.Fatalf("another process's change is not seen: %v %v", changed, err)
	}
}
