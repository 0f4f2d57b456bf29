//go:build matprofile

package vision

import (
	"fmt"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain fails the run when any Mat is left open (go test -tags matprofile).
func TestMain(m *testing.M) {
	code := m.Run()
	if sharedRec != nil {
		sharedRec.Close()
	}
	if n := gocv.MatProfile.Count(); n != 0 {
		fmt.Fprintf(os.Stderr, "%d Mats left open:\n", n)
		var b []byte
		w := &sliceWriter{&b}
		gocv.MatProfile.WriteTo(w, 1)
		os.Stderr.Write(b)
		code = 1
	}
	os.Exit(code)
}

type sliceWriter struct{ b *[]byte }

func (w *sliceWriter) Write(p []byte) (int, error) { *w.b = append(*w.b, p...); return len(p), nil }
