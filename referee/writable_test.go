package referee

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readOnlyFolder is a folder this process cannot write in: a folder made
// read-only, or, where permissions do not bind (root), /sys.
func readOnlyFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if f, err := os.CreateTemp(dir, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		dir = "/sys"
		if f, err := os.CreateTemp(dir, "probe"); err == nil {
			f.Close()
			os.Remove(f.Name())
			t.Fatal("no folder here refuses writing: run as a user without root")
		}
	}
	return dir
}

// TestOpenReadOnlyFolder: a record in a folder the service cannot write is
// refused at start with what to do, not SQLite's "out of memory (14)".
func TestOpenReadOnlyFolder(t *testing.T) {
	dir := readOnlyFolder(t)
	_, err := Open(context.Background(), Config{SQLitePath: filepath.Join(dir, "referee.db")})
	if err == nil {
		t.Fatal("opened a record in a read-only folder")
	}
	msg := err.Error()
	for _, want := range []string{"cannot write in the folder " + dir, "make it writable", EnvSQLitePath} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "out of memory") || strings.Contains(msg, "(14)") {
		t.Errorf("SQLite's own words: %q", msg)
	}
}

// TestOpenFolderPathOrUnmakeableFolder: a path naming a folder, or a folder
// that cannot be made, says so.
func TestOpenFolderPathOrUnmakeableFolder(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(context.Background(), Config{SQLitePath: dir})
	if err == nil || !strings.Contains(err.Error(), EnvSQLitePath+" names the folder "+dir) {
		t.Errorf("a folder as the file: %v", err)
	}
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), Config{SQLitePath: filepath.Join(file, "sub", "referee.db")})
	if err == nil || !strings.Contains(err.Error(), "cannot make the folder "+filepath.Join(file, "sub")) || strings.Contains(err.Error(), "mkdir") {
		t.Errorf("a folder that cannot be made: %v", err)
	}
}
