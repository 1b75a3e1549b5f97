package testevent

import (
	"os"
	"testing"

	"github.com/errtrack/errtrack/internal/testenv"
)

// TestMain runs the tests in a HOME, config and state of their own.
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
