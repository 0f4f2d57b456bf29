//go:build matprofile

package calibration

import (
	"fmt"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain fails the run when any Mat is left open (go test -tags matprofile).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		fmt.Fprintf(os.Stderr, "%d Mats left open\n", n)
		code = 1
	}
	os.Exit(code)
}
