package config

import (
	"fmt"
	"time"

	"github.com/errtrack/errtrack/internal/filelock"
)

// lockWait bounds how long Update waits for another errtrack to finish its
// own update of the file.
const lockWait = 5 * time.Second

// Update changes the file at path under an exclusive lock: read, change,
// write, so that commands running at once each see the others' changes (4
// commands at once, each remembering its own --ca-file, lost one of them
// before). change returns false to leave the file as it is. A corrupt or
// unreadable file is reported as Load does, and not written over.
func Update(path string, change func(*Config) bool) error {
	unlock, err := filelock.Lock(path+".lock", lockWait)
	if err != nil {
		return fmt.Errorf("the config file is being changed by another errtrack (%w)", err)
	}
	defer unlock()
	c, err := Load(path)
	if err != nil {
		if _, corrupt := err.(*CorruptError); !corrupt {
			return err
		}
	}
	if !change(c) {
		return nil
	}
	return c.Save(path)
}
