//go:build matprofile

package calibration

import (
	"os"
	"testing"

	"mjscan/internal/matcheck"
)

// TestMain fails the run when any Mat is left open (go test -tags matprofile).
func TestMain(m *testing.M) {
	os.Exit(matcheck.Run(m, nil))
}
