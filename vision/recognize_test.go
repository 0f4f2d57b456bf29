package vision

import (
	"context"
	"errors"
	"image"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"mjscan/scoring"
)

var (
	sharedOnce sync.Once
	sharedRec  *Recognizer
	sharedErr  error
)

// recognizer loads the shipped models once for the whole test binary.
func recognizer(t testing.TB) *Recognizer {
	sharedOnce.Do(func() { sharedRec, sharedErr = New(Config{Workers: 4}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedRec
}

func samplePhoto(t testing.TB) []byte {
	data, err := os.ReadFile("../testdata/photos/dev-sample.jpg")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRecognizeGarbage: what is not a photo gets a clear bad_request, not a crash.
func TestRecognizeGarbage(t *testing.T) {
	rec := recognizer(t)
	for _, data := range [][]byte{nil, []byte("GIF89a"), []byte("\xff\xd8\xff\xe0 truncated jpeg")} {
		r := rec.Recognize("x", data)
		if r.OK || r.Error == nil || r.Error.Code != scoring.CodeBadRequest || r.Tiles == nil {
			t.Errorf("Recognize(%q) = ok %v error %v tiles %v, want a bad_request and an empty tile list", data, r.OK, r.Error, r.Tiles)
		}
	}
}

// TestRecognizeTinyAndBlankPhotos: photos with nothing on them give no
// tiles rather than an OpenCV abort; photos too small to show a tile are
// refused with a bad_request that says so.
func TestRecognizeTinyAndBlankPhotos(t *testing.T) {
	rec := recognizer(t)
	for _, size := range []image.Point{{1, 1}, {3, 700}, {640, 480}} {
		m := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC3)
		buf, err := gocv.IMEncode(gocv.PNGFileExt, m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		r := rec.Recognize("blank", buf.GetBytes())
		buf.Close()
		if size.X < MinPhotoSide || size.Y < MinPhotoSide {
			if r.OK || r.Error == nil || r.Error.Code != scoring.CodeBadRequest || !strings.Contains(r.Error.Message, "too small") {
				t.Errorf("%v photo: ok %v error %v, want a bad_request saying it is too small", size, r.OK, r.Error)
			}
			continue
		}
		if !r.OK || r.Width != size.X || r.Height != size.Y {
			t.Errorf("%v blank photo: ok %v size %dx%d error %v", size, r.OK, r.Width, r.Height, r.Error)
		}
		if len(r.Tiles) > 2 {
			t.Errorf("%v blank photo: %d tiles found in an empty image", size, len(r.Tiles))
		}
	}
}

// TestRecognizeConcurrently runs the committed photo from many goroutines at
// once: every result must equal the one read alone (no shared state between
// workers' networks).
func TestRecognizeConcurrently(t *testing.T) {
	rec := recognizer(t)
	data := samplePhoto(t)
	want := rec.Recognize("p", data)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := rec.Recognize("p", data)
			if !reflect.DeepEqual(got, want) {
				errs <- "a concurrent recognition differs from the serial one"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// fuzzSetup seeds a fuzz test with a photo and two things that are not
// photos, and gives it a one-worker recogniser.
func fuzzSetup(f *testing.F, photo string) *Recognizer {
	if data, err := os.ReadFile(photo); err == nil {
		f.Add(data)
	}
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte("not a photo"))
	rec, err := New(Config{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(rec.Close)
	return rec
}

func FuzzRecognize(f *testing.F) {
	rec := fuzzSetup(f, "../testdata/photos/dev-sample.jpg")
	f.Fuzz(func(t *testing.T, data []byte) {
		r := rec.Recognize("f", data)
		if r.OK == (r.Error != nil) {
			t.Fatalf("ok %v with error %v", r.OK, r.Error)
		}
		for _, tile := range r.Tiles {
			b := tile.Box
			if b[0] < 0 || b[1] < 0 || b[2] > r.Width || b[3] > r.Height || b[0] >= b[2] || b[1] >= b[3] {
				t.Fatalf("box %v outside the %dx%d photo", b, r.Width, r.Height)
			}
		}
	})
}

func BenchmarkRecognize640(b *testing.B) {
	rec, err := New(Config{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	data := samplePhoto(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec.Recognize("b", data)
	}
}

// BenchmarkRecognize12MP reads the committed photo scaled up to 4000×3000
// and saved as a JPEG, decode included.
func BenchmarkRecognize12MP(b *testing.B) {
	rec, err := New(Config{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	small, err := DecodePhoto(samplePhoto(b))
	if err != nil {
		b.Fatal(err)
	}
	defer small.Close()
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(small, &big, image.Pt(4000, 3000), 0, 0, gocv.InterpolationCubic)
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, big)
	if err != nil {
		b.Fatal(err)
	}
	defer buf.Close()
	data := append([]byte(nil), buf.GetBytes()...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec.Recognize("b", data)
	}
}

// TestRecognizeContext: the service's entry point tells a non-photo apart
// (ErrNotAPhoto) and gives up when its context has ended.
func TestRecognizeContext(t *testing.T) {
	rec := recognizer(t)
	if _, err := rec.RecognizeContext(context.Background(), []byte("hello")); !errors.Is(err, ErrNotAPhoto) {
		t.Errorf("garbage: error %v, want ErrNotAPhoto", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Hold every worker so the call has to wait, then see it give up.
	held := make([]*worker, 0, cap(rec.pool))
	for len(held) < cap(rec.pool) {
		held = append(held, <-rec.pool)
	}
	_, err := rec.RecognizeContext(ctx, samplePhoto(t))
	for _, w := range held {
		rec.pool <- w
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("ended context: error %v, want context.Canceled", err)
	}
	r, err := rec.RecognizeContext(context.Background(), samplePhoto(t))
	if err != nil || !r.OK || len(r.Tiles) == 0 {
		t.Fatalf("sample photo: %v %+v", err, r)
	}
	if v := rec.ModelVersion(); !strings.HasPrefix(v, "tile_detector@") {
		t.Errorf("model version %q", v)
	}
}
