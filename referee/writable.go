package referee

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkSQLiteWritable checks that the service may write in the SQLite
// file's folder (SQLite keeps its -wal and -shm files beside the database)
// and may write the file when it exists. SQLite itself reports a folder it
// cannot write as "out of memory (14)"; this says what to do instead.
func checkSQLiteWritable(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s names the folder %s: give a file in it, such as %s", EnvSQLitePath, path, filepath.Join(path, "referee.db"))
	}
	f, err := os.CreateTemp(dir, ".mjscan-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write in the folder %s, where the referee record is kept (%s): make it writable for the service, or set %s to a file in a folder it may write", dir, reason(err), EnvSQLitePath)
	}
	f.Close()
	os.Remove(f.Name())
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write the referee record %s (%s): make the file writable for the service, or set %s to another file", path, reason(err), EnvSQLitePath)
	}
	return nil
}

// mkdirError says why the SQLite file's folder could not be made.
func mkdirError(dir string, err error) error {
	return fmt.Errorf("cannot make the folder %s for the referee record (%s): create it, or set %s to a file in a folder the service may write", dir, reason(err), EnvSQLitePath)
}

// reason is the operating system's few words ("permission denied",
// "read-only file system") without the path Go puts before them.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
