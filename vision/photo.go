// Package vision finds and reads the tiles in a photo of a mahjong table.
package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // header checks for the formats OpenCV decodes
	_ "image/png"

	"gocv.io/x/gocv"
)

// MaxMegapixels bounds what a photo may hold before it is decoded.
const MaxMegapixels = 50

// ErrNotAPhoto says the bytes are not a JPEG or PNG photo.
var ErrNotAPhoto = errors.New("not a photo: send a JPEG or PNG image")

// ErrTooLarge says the photo holds more pixels than are decoded.
var ErrTooLarge = errors.New("photo too large")

// MinPhotoSide is the fewest pixels a photo may have on its short side: a
// tile needs about that many to be read, and OpenCV aborts the process on
// a reduced decode or a resize whose side rounds to 0.
const MinPhotoSide = 16

// MaxAspect is how many times longer than wide a photo may be: a row of
// fourteen tiles side by side is about 11 times as long as it is high.
const MaxAspect = 20

// DecodePhoto checks the image header (format and size) before OpenCV sees
// the bytes, then decodes them to a BGR Mat. The caller closes the Mat.
// OpenCV aborts the process on some bad input, so nothing reaches it
// unchecked.
func DecodePhoto(data []byte) (gocv.Mat, error) {
	m, _, err := decodeReduced(data, 0)
	return m, err
}

// decodeReduced is DecodePhoto for recognition: a photo whose long side is
// at least minSide times 2 (or 4) is decoded at half (or quarter) size by
// the JPEG decoder itself, which is several times faster than decoding
// every pixel; tiles stay far larger than the classifier's input. It
// returns the factor the Mat is smaller by. minSide 0 never reduces.
func decodeReduced(data []byte, minSide int) (gocv.Mat, int, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return gocv.NewMat(), 1, ErrNotAPhoto
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return gocv.NewMat(), 1, fmt.Errorf("%w: the image has no pixels", ErrNotAPhoto)
	}
	if err := CheckShape(cfg.Width, cfg.Height); err != nil {
		return gocv.NewMat(), 1, err
	}
	short, long := min(cfg.Width, cfg.Height), max(cfg.Width, cfg.Height)
	if mp := float64(cfg.Width) * float64(cfg.Height) / 1e6; mp > MaxMegapixels {
		return gocv.NewMat(), 1, fmt.Errorf("%w: %.0f megapixels; at most %d are accepted: send a smaller photo", ErrTooLarge, mp, MaxMegapixels)
	}
	if Truncated(data) {
		return gocv.NewMat(), 1, fmt.Errorf("%w: the file is damaged: it ends before the picture does", ErrNotAPhoto)
	}
	// A reduced decode must keep the short side at MinPhotoSide or more
	// (OpenCV aborts on a side that rounds to 0).
	flag, factor := gocv.IMReadColor, 1
	switch {
	case minSide > 0 && long >= 4*minSide && short >= 4*MinPhotoSide:
		flag, factor = gocv.IMReadReducedColor4, 4
	case minSide > 0 && long >= 2*minSide && short >= 2*MinPhotoSide:
		flag, factor = gocv.IMReadReducedColor2, 2
	}
	m, err := gocv.IMDecode(data, flag)
	if err != nil {
		return gocv.NewMat(), 1, fmt.Errorf("%w: %v", ErrNotAPhoto, err)
	}
	if m.Empty() || m.Cols() < 1 || m.Rows() < 1 {
		m.Close()
		return gocv.NewMat(), 1, fmt.Errorf("%w: the image data is damaged", ErrNotAPhoto)
	}
	return m, factor, nil
}

// ShapeError says a photo's sides cannot show a tile: too short, or too
// long for their width. It wraps ErrNotAPhoto.
type ShapeError struct{ Width, Height int }

func (e *ShapeError) Error() string {
	if min(e.Width, e.Height) < MinPhotoSide {
		return fmt.Sprintf("the image is %d×%d pixels, too small to show a tile: send a photo at least %d pixels on each side", e.Width, e.Height, MinPhotoSide)
	}
	return fmt.Sprintf("the image is %d×%d pixels, more than %d times as long as it is wide: send a photo of the table, not a strip", e.Width, e.Height, MaxAspect)
}

func (e *ShapeError) Unwrap() error { return ErrNotAPhoto }

// CheckShape refuses, before anything is decoded, a photo whose sides
// (from its header) cannot show a tile.
func CheckShape(w, h int) error {
	if short := min(w, h); short < MinPhotoSide || max(w, h) > MaxAspect*short {
		return &ShapeError{w, h}
	}
	return nil
}

// photoSize reads the stored width and height from the header.
func photoSize(data []byte) (int, int, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	return cfg.Width, cfg.Height, err
}
