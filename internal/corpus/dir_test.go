package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirIsTheRepositorys: the corpora come from the repository's own
// testdata (nothing beside it is needed), and $MJSCAN_CORPORA still wins.
func TestDirIsTheRepositorys(t *testing.T) {
	t.Setenv("MJSCAN_CORPORA", "")
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if want := filepath.Join(root, "testdata", "corpora"); d != want {
		t.Errorf("Dir() = %s, want %s", d, want)
	}
	if _, err := os.Stat(filepath.Join(d, "riichi_public.jsonl")); err != nil {
		t.Error(err)
	}
	other := t.TempDir()
	t.Setenv("MJSCAN_CORPORA", other)
	if d, err := Dir(); err != nil || d != other {
		t.Errorf("with MJSCAN_CORPORA set: Dir() = %s, %v; want %s", d, err, other)
	}
}
