package check

import (
	"os"
	"testing"

	"github.com/errtrack/errtrack/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
