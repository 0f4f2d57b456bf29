package vision

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestTruncated: a photo cut short anywhere after its header is truncated;
// a whole one is not, nor one with data after its end (phones append a
// video to some), nor a file that is no JPEG or PNG.
func TestTruncated(t *testing.T) {
	jpg, err := os.ReadFile(filepath.Join("..", "testdata", "photos", "hand-017.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 64, 48))); err != nil {
		t.Fatal(err)
	}
	for name, whole := range map[string][]byte{"jpeg": jpg, "png": pngBuf.Bytes()} {
		if Truncated(whole) {
			t.Errorf("%s: the whole file is called truncated", name)
		}
		if Truncated(append(append([]byte(nil), whole...), []byte("ftypmp42 a video after the photo")...)) {
			t.Errorf("%s: data after the end is called truncated", name)
		}
		for _, frac := range []float64{0.1, 0.5, 0.9, 0.99} {
			if n := int(frac * float64(len(whole))); !Truncated(whole[:n]) {
				t.Errorf("%s cut to %d of %d bytes: not called truncated", name, n, len(whole))
			}
		}
		if !Truncated(whole[:len(whole)-2]) {
			t.Errorf("%s without its last two bytes: not called truncated", name)
		}
	}
	for _, other := range [][]byte{nil, []byte("GIF89a"), []byte("a letter, not a photo")} {
		if Truncated(other) {
			t.Errorf("%q called truncated", other)
		}
	}
}
