package app

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestImportDirection holds the layers to their order: api → app →
// vision, calibration → scoring, and no step back up. Snap-and-score flows
// down this path, never into api from below it; echo stays in api.
func TestImportDirection(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	deps := func(pkg string) map[string]bool {
		out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		m := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			m[p] = true
		}
		return m
	}
	// The path itself: api reaches scoring through app and vision.
	if d := deps("mjscan/api"); !d["mjscan/internal/app"] || !d["mjscan/vision"] || !d["mjscan/scoring/rulebook"] {
		t.Fatal("go list does not show api's path down to vision and scoring")
	}
	const echo = "github.com/labstack/echo/v4"
	for _, c := range []struct {
		pkg       string
		forbidden []string
	}{
		{"mjscan/internal/app", []string{"mjscan/api", echo, "net/http/httptest"}},
		{"mjscan/internal/fault", []string{"mjscan/api", "mjscan/internal/app", "net/http", echo}},
		{"mjscan/vision", []string{"mjscan/api", "mjscan/internal/app", "mjscan/calibration", echo}},
		{"mjscan/calibration", []string{"mjscan/api", "mjscan/internal/app", "mjscan/scoring/rulebook", echo}},
		{"mjscan/scoring/rulebook", []string{"mjscan/api", "mjscan/internal/app", "mjscan/vision", "mjscan/calibration", echo}},
		{"mjscan/scoring", []string{"mjscan/api", "mjscan/internal/app", "mjscan/vision", "mjscan/calibration", echo}},
	} {
		d := deps(c.pkg)
		for _, f := range c.forbidden {
			if d[f] {
				t.Errorf("%s imports %s (directly or not): the layers run api → app → vision/calibration → scoring", c.pkg, f)
			}
		}
	}
}
