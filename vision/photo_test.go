package vision

import (
	"errors"
	"os"
	"testing"
)

// TestDecodeCommittedPhoto proves the cgo/OpenCV path: a real photo from
// testdata decodes to a 640×640 three-channel Mat.
func TestDecodeCommittedPhoto(t *testing.T) {
	data, err := os.ReadFile("../testdata/photos/dev-sample.jpg")
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodePhoto(data)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Cols() != 640 || m.Rows() != 640 || m.Channels() != 3 {
		t.Fatalf("decoded %dx%d with %d channels, want 640x640x3", m.Cols(), m.Rows(), m.Channels())
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("hello"), []byte("\xff\xd8\xff\xe0 truncated jpeg")} {
		m, err := DecodePhoto(data)
		m.Close()
		if !errors.Is(err, ErrNotAPhoto) {
			t.Errorf("DecodePhoto(%q) error = %v, want ErrNotAPhoto", data, err)
		}
	}
}

func FuzzDecodePhoto(f *testing.F) {
	if data, err := os.ReadFile("../testdata/photos/dev-sample.jpg"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodePhoto(data)
		defer m.Close()
		if err == nil && m.Empty() {
			t.Fatal("no error but an empty Mat")
		}
	})
}
