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

// DecodePhoto checks the image header (format and size) before OpenCV sees
// the bytes, then decodes them to a BGR Mat. The caller closes the Mat.
// OpenCV aborts the process on some bad input, so nothing reaches it
// unchecked.
func DecodePhoto(data []byte) (gocv.Mat, error) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return gocv.NewMat(), ErrNotAPhoto
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return gocv.NewMat(), fmt.Errorf("%w: the image has no pixels", ErrNotAPhoto)
	}
	if mp := float64(cfg.Width) * float64(cfg.Height) / 1e6; mp > MaxMegapixels {
		return gocv.NewMat(), fmt.Errorf("photo is %.0f megapixels; at most %d are accepted: send a smaller photo", mp, MaxMegapixels)
	}
	m, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil {
		return gocv.NewMat(), fmt.Errorf("%w: %v", ErrNotAPhoto, err)
	}
	if m.Empty() {
		m.Close()
		return gocv.NewMat(), fmt.Errorf("%w: the image data is damaged", ErrNotAPhoto)
	}
	return m, nil
}
