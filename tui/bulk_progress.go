package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// How a bulk run's progress reaches the console: in batches, at most one
// a frame, however many projects start and end.

// bulkFrame is how often at most the run's progress is delivered: Bubble
// Tea draws a frame after every message, and a run over 5,000 projects
// sends 10,000 events.
const bulkFrame = 50 * time.Millisecond

// bulkPace is when the last batch was delivered; only the run's waits,
// one after the other, use it.
type bulkPace struct{ last time.Time }

// waitBulk delivers the run's next messages as one batch: the first as
// soon as it comes when none came for bulkFrame, else with all that came
// until then.
func waitBulk(ch chan tea.Msg, pace *bulkPace) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		batch := bulkBatchMsg{msg}
		timer := time.NewTimer(time.Until(pace.last.Add(bulkFrame)))
		defer timer.Stop()
		for more := true; more; {
			if _, end := msg.(bulkEndedMsg); end {
				break
			}
			// What came already goes in first; then whatever comes until
			// the frame is due.
			select {
			case msg, more = <-ch:
			default:
				select {
				case msg, more = <-ch:
				case <-timer.C:
					more = false
				}
			}
			if more {
				batch = append(batch, msg)
			}
		}
		pace.last = time.Now()
		return batch
	}
}
