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
)

//go:embed tile_classifier.onnx tile_classifier.json tile_detector.onnx tile_detector.json
var files embed.FS

// Input says how an image becomes the network's input blob.
type Input struct {
	Name         string    `json:"name"`
	Shape        []int     `json:"shape"`
	Width        int       `json:"width"`
	Height       int       `json:"height"`
	ChannelOrder string    `json:"channel_order"`
	Scale        float64   `json:"scale"`
	Mean         []float64 `json:"mean"`
}

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
	Name        string    `json:"name"`
	File        string    `json:"file"`
	SHA256      string    `json:"sha256"`
	Input       Input     `json:"input"`
	Output      Output    `json:"output"`
	Labels      []string  `json:"labels,omitempty"`
	Lying       *Lying    `json:"lying_output,omitempty"`
	Features    *Features `json:"features,omitempty"`
	Temperature float64   `json:"temperature,omitempty"`
	Decode      Decode    `json:"decode"`
	OpenCV      string    `json:"opencv_tested"`
	Attribution string    `json:"attribution"`
}

// Load returns a model's manifest and its ONNX bytes, refusing a model whose
// bytes do not match the manifest's checksum or whose input is not BGR.
func Load(name string) (Manifest, []byte, error) {
	var m Manifest
	raw, err := files.ReadFile(name + ".json")
	if err != nil {
		return m, nil, fmt.Errorf("model %s: no manifest: %w", name, err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, nil, fmt.Errorf("model %s: manifest: %w", name, err)
	}
	data, err := files.ReadFile(m.File)
	if err != nil {
		return m, nil, fmt.Errorf("model %s: %w", name, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != m.SHA256 {
		return m, nil, fmt.Errorf("model %s: %s does not match the manifest's sha256", name, m.File)
	}
	if m.Input.ChannelOrder != "BGR" || m.Input.Width <= 0 || m.Input.Height <= 0 || m.Input.Scale <= 0 {
		return m, nil, fmt.Errorf("model %s: manifest input must be BGR with a size and scale", name)
	}
	if m.Lying != nil && m.Lying.Index != len(m.Labels) {
		return m, nil, fmt.Errorf("model %s: lying_output must follow the %d labels' logits, not sit at %d", name, len(m.Labels), m.Lying.Index)
	}
	if f := m.Features; f != nil && (f.Name == "" || f.Name == m.Output.Name || f.Size <= 0 || f.Size > 4096) {
		return m, nil, fmt.Errorf("model %s: features output must have a name of its own and a size of 1 to 4096", name)
	}
	return m, data, nil
}
