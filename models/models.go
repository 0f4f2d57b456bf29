// Package models ships the trained networks the photo recogniser runs, each
// beside its manifest (inputs, preprocessing, labels, checksum, training data,
// measured accuracy, attribution). They are embedded so the binary and the
// tests need no files at run time. models/train/ holds the scripts that make
// them (make train).
package models

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
)

//go:embed tile_classifier.onnx tile_classifier.json tile_detector.onnx tile_detector.json broad_detector.onnx broad_detector.json part_reader.onnx part_reader.json index_reader.onnx index_reader.json
var files embed.FS

// Input names the network's input blob and its size; Preprocess says how
// an image becomes it.
type Input struct {
	Name         string `json:"name"`
	Shape        []int  `json:"shape"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	ChannelOrder string `json:"channel_order"`
}

// Preprocess says how a photo becomes the network's input, exactly as the
// network saw it in training: the recogniser (vision/) and the training
// scripts (models/train/common.py) both read it from the manifest, so
// neither repeats a number of the other's.
type Preprocess struct {
	// Scale and Mean make the blob from the pixels, channel by channel in
	// BGR order: (pixel − mean) × scale, the mean in pixel units (0–255).
	Scale float64   `json:"scale"`
	Mean  []float64 `json:"mean"`
	// Resize names OpenCV's interpolation for every resize of the photo
	// or of a crop into the input (see Interpolation).
	Resize string `json:"resize"`
	// Pad (a detector's) is the letterbox colour, BGR, at the right and
	// bottom of a photo scaled to fit the square input.
	Pad []float64 `json:"pad,omitempty"`
	// Margin (a classifier's) is the share of a box's width and height it
	// is grown by on each side before the tile is cut out.
	Margin float64 `json:"margin"`
	// TurnAspect (a classifier's): a cut wider than TurnAspect times its
	// height holds a tile lying sideways, turned a quarter clockwise to
	// stand upright in the portrait input.
	TurnAspect float64 `json:"turn_aspect"`
}

// interpolations are the resize names a manifest may give, with OpenCV's
// flag for each (cv::InterpolationFlags, gocv's InterpolationFlags).
var interpolations = map[string]int{"nearest": 0, "linear": 1, "cubic": 2, "area": 3, "lanczos4": 4}

// Interpolation is OpenCV's interpolation flag for Resize (validated at
// load, so every loaded manifest names one).
func (p Preprocess) Interpolation() int { return interpolations[p.Resize] }

// Output names the network's output blob and its shape.
type Output struct {
	Name   string `json:"name"`
	Shape  []int  `json:"shape"`
	Stride int    `json:"stride,omitempty"`
}

// Decode holds the detector's post-processing settings.
type Decode struct {
	Threshold float64 `json:"threshold"`
	NMSIoU    float64 `json:"nms_iou"`
}

// Lying is the classifier's optional orientation output: the logit, at
// Index in each row, right after the labels' logits, that the tile lies
// across its crop (turned a quarter from the crop's portrait frame).
type Lying struct {
	Index int `json:"index"`
}

// Features names the classifier's optional second output: the vector its
// last layer reads, Size values a crop. A taught tile set (vision's Bank)
// fits its own classifier on it.
type Features struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

// Manifest describes one shipped model.
type Manifest struct {
	Name        string     `json:"name"`
	File        string     `json:"file"`
	SHA256      string     `json:"sha256"`
	Input       Input      `json:"input"`
	Output      Output     `json:"output"`
	Labels      []string   `json:"labels,omitempty"`
	Lying       *Lying     `json:"lying_output,omitempty"`
	Features    *Features  `json:"features,omitempty"`
	Temperature float64    `json:"temperature,omitempty"`
	Decode      Decode     `json:"decode"`
	Preprocess  Preprocess `json:"preprocess"`
	OpenCV      string     `json:"opencv_tested"`
	Attribution string     `json:"attribution"`
}

// Load returns a model's manifest and its ONNX bytes, refusing a model whose
// bytes do not match the manifest's checksum, whose input is not BGR or
// whose preprocess block is missing a value or holds one out of range.
func Load(name string) (Manifest, []byte, error) {
	return load(files, name)
}

func load(fsys fs.FS, name string) (Manifest, []byte, error) {
	var m Manifest
	raw, err := fs.ReadFile(fsys, name+".json")
	if err != nil {
		return m, nil, fmt.Errorf("model %s: no manifest: %w", name, err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, nil, fmt.Errorf("model %s: manifest: %w", name, err)
	}
	data, err := fs.ReadFile(fsys, m.File)
	if err != nil {
		return m, nil, fmt.Errorf("model %s: %w", name, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != m.SHA256 {
		return m, nil, fmt.Errorf("model %s: %s does not match the manifest's sha256", name, m.File)
	}
	if m.Input.ChannelOrder != "BGR" || m.Input.Width <= 0 || m.Input.Height <= 0 {
		return m, nil, fmt.Errorf("model %s: manifest input must be BGR with a size", name)
	}
	if m.Lying != nil && m.Lying.Index != len(m.Labels) {
		return m, nil, fmt.Errorf("model %s: lying_output must follow the %d labels' logits, not sit at %d", name, len(m.Labels), m.Lying.Index)
	}
	if f := m.Features; f != nil && (f.Name == "" || f.Name == m.Output.Name || f.Size <= 0 || f.Size > 4096) {
		return m, nil, fmt.Errorf("model %s: features output must have a name of its own and a size of 1 to 4096", name)
	}
	if err := checkPreprocess(raw, m); err != nil {
		return m, nil, fmt.Errorf("model %s: manifest %w", name, err)
	}
	return m, data, nil
}

// checkPreprocess refuses a preprocess block that lacks a value the model
// needs or holds one out of range, naming the field. Every model needs a
// scale, a mean and a resize; a detector (an output stride) its pad; a
// classifier (labels) its margin and turn aspect.
func checkPreprocess(raw []byte, m Manifest) error {
	var present struct {
		Preprocess map[string]json.RawMessage `json:"preprocess"`
	}
	if err := json.Unmarshal(raw, &present); err != nil {
		return err
	}
	if present.Preprocess == nil {
		return fmt.Errorf("has no preprocess block (scale, mean, resize, and pad for a detector or margin and turn_aspect for a classifier)")
	}
	need := []string{"scale", "mean", "resize"}
	if m.Output.Stride > 0 {
		need = append(need, "pad")
	}
	if len(m.Labels) > 0 {
		need = append(need, "margin", "turn_aspect")
	}
	for _, k := range need {
		if v, ok := present.Preprocess[k]; !ok || string(v) == "null" {
			return fmt.Errorf("field preprocess.%s is missing", k)
		}
	}
	p := m.Preprocess
	if !(p.Scale > 0 && p.Scale <= 1) {
		return fmt.Errorf("field preprocess.scale is %v: want more than 0 and at most 1", p.Scale)
	}
	if err := channels("mean", p.Mean, false); err != nil {
		return err
	}
	if _, ok := interpolations[p.Resize]; !ok {
		return fmt.Errorf("field preprocess.resize is %q: want nearest, linear, cubic, area or lanczos4", p.Resize)
	}
	if _, ok := present.Preprocess["pad"]; ok {
		if err := channels("pad", p.Pad, true); err != nil {
			return err
		}
	}
	if !(p.Margin >= 0 && p.Margin <= 0.5) {
		return fmt.Errorf("field preprocess.margin is %v: want 0 to 0.5 (a share of the box on each side)", p.Margin)
	}
	if _, ok := present.Preprocess["turn_aspect"]; ok && !(p.TurnAspect >= 1 && p.TurnAspect <= 4) {
		return fmt.Errorf("field preprocess.turn_aspect is %v: want 1 to 4 (a width over a height)", p.TurnAspect)
	}
	return nil
}

// channels checks a BGR triple of pixel values (0–255; whole numbers when
// whole is set).
func channels(field string, v []float64, whole bool) error {
	if len(v) != 3 {
		return fmt.Errorf("field preprocess.%s has %d values: want 3 (blue, green, red)", field, len(v))
	}
	for _, c := range v {
		if !(c >= 0 && c <= 255) || (whole && c != math.Trunc(c)) {
			kind := "from 0 to 255"
			if whole {
				kind = "whole numbers from 0 to 255"
			}
			return fmt.Errorf("field preprocess.%s is %v: want %s", field, v, kind)
		}
	}
	return nil
}
