//go:build matprofile

// Package matcheck fails a test binary that leaves gocv Mats open. The
// TestMain of each package tested with -tags matprofile runs through it.
package matcheck

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// Run runs the tests, then cleanup (which closes what the tests share),
// and reports every Mat still open with the stack that made it.
func Run(m *testing.M, cleanup func()) int {
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	if n := gocv.MatProfile.Count(); n != 0 {
		var b strings.Builder
		gocv.MatProfile.WriteTo(&b, 1)
		fmt.Fprintf(os.Stderr, "%d Mats left open:\n%s", n, b.String())
		return 1
	}
	return code
}
