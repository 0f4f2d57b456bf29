// Package calibration finds a mahjong table in a fixed camera's frame and
// the region in front of each seat, so that later frames are rectified and
// the tiles in front of a seat are read as that seat's hand, not as
// discards in the middle or another player's tiles.
//
// Calibration takes one frame of the table (empty or set up): the felt is
// found as the largest green area with four corners, and the homography
// that maps it onto a square is stored. The camera stands behind the seat
// named at the near edge (East unless told otherwise); going round the
// square counter-clockwise seen from above, the seats follow in play order.
package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"mjscan/vision"
)

// Side is the edge length of the rectified table square in pixels.
const Side = 1200

// Point is a frame position in pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Calibration is what is stored for one table.
type Calibration struct {
	// Width and Height are the frame size the calibration was made on;
	// later frames must have the same size.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Corners of the felt in the frame: far left, far right, near right,
	// near left (as the camera sees them).
	Corners [4]Point `json:"corners"`
	// Homography maps frame pixels onto the Side×Side square (row-major).
	Homography [9]float64 `json:"homography"`
	// Near is the seat wind at the near edge; the others follow
	// counter-clockwise: near, right, far, left.
	Near string `json:"near"`
}

// Felt is the colour range (OpenCV HSV: hue 0–180) the table is found by.
type Felt struct {
	HueMin, HueMax, SatMin, ValMin float64
}

// GreenFelt is the usual green table cloth.
var GreenFelt = Felt{HueMin: 35, HueMax: 90, SatMin: 60, ValMin: 40}

// ErrNoTable says the frame shows no table the calibration can use.
var ErrNoTable = errors.New("no table found: the whole felt must be in view, as one green area with four corners")

// Calibrate finds the table in one frame. near is the seat at the edge
// nearest the camera ("" for East).
func Calibrate(frame []byte, felt Felt, near string) (*Calibration, error) {
	if near == "" {
		near = "E"
	}
	if seatIndex(near, "E") < 0 {
		return nil, fmt.Errorf("near seat %.8q: use E, S, W or N", near)
	}
	// DecodePhoto hands back a Mat even when it fails: close it either way.
	img, err := vision.DecodePhoto(frame)
	defer img.Close()
	if err != nil {
		return nil, err
	}
	corners, err := findFelt(img, felt)
	if err != nil {
		return nil, err
	}
	c := &Calibration{Width: img.Cols(), Height: img.Rows(), Corners: corners, Near: near}
	h := perspective(corners, squareCorners())
	defer h.Close()
	for i := 0; i < 9; i++ {
		c.Homography[i] = h.GetDoubleAt(i/3, i%3)
	}
	return c, nil
}

// findFelt is the four corners of the largest felt-coloured area.
func findFelt(img gocv.Mat, felt Felt) ([4]Point, error) {
	var out [4]Point
	hsv := gocv.NewMat()
	defer hsv.Close()
	gocv.CvtColor(img, &hsv, gocv.ColorBGRToHSV)
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.InRangeWithScalar(hsv, gocv.NewScalar(felt.HueMin, felt.SatMin, felt.ValMin, 0), gocv.NewScalar(felt.HueMax, 255, 255, 0), &mask)
	// Tiles lying on the felt make holes; closing fills the small ones,
	// and only the outer contour counts anyway.
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(15, 15))
	defer kernel.Close()
	gocv.MorphologyEx(mask, &mask, gocv.MorphClose, kernel)
	contours := gocv.FindContours(mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	best, area := -1, 0.0
	for i := 0; i < contours.Size(); i++ {
		if a := gocv.ContourArea(contours.At(i)); a > area {
			best, area = i, a
		}
	}
	if best < 0 || area < 0.1*float64(img.Cols()*img.Rows()) {
		return out, ErrNoTable
	}
	// The hull smooths notches that tiles or arms at the table's edge cut
	// into the felt; the table itself is convex.
	hullMat := gocv.NewMat()
	defer hullMat.Close()
	gocv.ConvexHull(contours.At(best), &hullMat, true, true)
	hull := gocv.NewPointVectorFromMat(hullMat)
	defer hull.Close()
	poly := gocv.ApproxPolyDP(hull, 0.02*gocv.ArcLength(hull, true), true)
	defer poly.Close()
	if poly.Size() != 4 {
		return out, fmt.Errorf("%w (the largest green area has %d corners)", ErrNoTable, poly.Size())
	}
	pts := poly.ToPoints()
	// Far edge first: the two corners highest in the frame, left to right,
	// then the near edge right to left.
	sort.Slice(pts, func(i, j int) bool { return pts[i].Y < pts[j].Y })
	far, nearEdge := pts[:2], pts[2:]
	sort.Slice(far, func(i, j int) bool { return far[i].X < far[j].X })
	sort.Slice(nearEdge, func(i, j int) bool { return nearEdge[i].X > nearEdge[j].X })
	for i, p := range append(append([]image.Point{}, far...), nearEdge...) {
		out[i] = Point{float64(p.X), float64(p.Y)}
	}
	return out, nil
}

// squareCorners are the rectified corners in the order of Corners.
func squareCorners() [4]Point {
	return [4]Point{{0, 0}, {Side, 0}, {Side, Side}, {0, Side}}
}

func perspective(from, to [4]Point) gocv.Mat {
	a := make([]gocv.Point2f, 4)
	b := make([]gocv.Point2f, 4)
	for i := range from {
		a[i] = gocv.Point2f{X: float32(from[i].X), Y: float32(from[i].Y)}
		b[i] = gocv.Point2f{X: float32(to[i].X), Y: float32(to[i].Y)}
	}
	va, vb := gocv.NewPoint2fVectorFromPoints(a), gocv.NewPoint2fVectorFromPoints(b)
	defer va.Close()
	defer vb.Close()
	return gocv.GetPerspectiveTransform2f(va, vb)
}

// seatIndex is where seat sits counting counter-clockwise from the near
// edge (0 near, 1 right, 2 far, 3 left), given the near seat; -1 for a
// name that is no seat.
// CheckSeat refuses a seat that is not a wind: E, S, W or N.
func CheckSeat(seat string) error {
	if indexOf("ESWN", seat) < 0 {
		return fmt.Errorf("seat %.8q: use E, S, W or N", seat)
	}
	return nil
}

// Seats are the four seats, in play order.
var Seats = []string{"E", "S", "W", "N"}

// NearFor is the near seat a calibration would need for the tiles it
// finds in front of seenAt to be in front of seat: what to set when a
// hand turns up in front of the wrong seat. Both must be seats.
func (c *Calibration) NearFor(seat, seenAt string) string {
	k, s := seatIndex(seenAt, c.Near), indexOf("ESWN", seat)
	if k < 0 || s < 0 {
		return ""
	}
	return Seats[(s-k+4)%4]
}

func seatIndex(seat, near string) int {
	order := "ESWN"
	s, n := indexOf(order, seat), indexOf(order, near)
	if s < 0 || n < 0 {
		return -1
	}
	return (s - n + 4) % 4
}

func indexOf(s, c string) int {
	if len(c) != 1 {
		return -1
	}
	for i := range s {
		if s[i] == c[0] {
			return i
		}
	}
	return -1
}

// HandBand is the part of the rectified square, seen from the near seat,
// where a player's hand and melds lie: along the edge, clear of the
// corners, and short of the discards in the middle.
var HandBand = image.Rect(Side/10, Side*78/100, Side*9/10, Side*98/100)

// SeatHand cuts the hand band of one seat out of a frame, rectified and
// turned so that the seat's tiles stand upright as the seat sees them, and
// returns it as a JPEG for the recogniser.
func (c *Calibration) SeatHand(frame []byte, seat string) ([]byte, error) {
	k := seatIndex(seat, c.Near)
	if k < 0 {
		return nil, fmt.Errorf("seat %.8q: use E, S, W or N", seat)
	}
	// DecodePhoto hands back a Mat even when it fails: close it either way.
	img, err := vision.DecodePhoto(frame)
	defer img.Close()
	if err != nil {
		return nil, err
	}
	if img.Cols() != c.Width || img.Rows() != c.Height {
		return nil, fmt.Errorf("the frame is %dx%d but the table was calibrated on %dx%d: calibrate again", img.Cols(), img.Rows(), c.Width, c.Height)
	}
	h := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer h.Close()
	for i, v := range c.Homography {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("the stored calibration is damaged: calibrate again")
		}
		h.SetDoubleAt(i/3, i%3, v)
	}
	square := gocv.NewMat()
	defer square.Close()
	gocv.WarpPerspective(img, &square, h, image.Pt(Side, Side))
	// Turn the square so the seat sits at the near edge: the seat on the
	// right (k=1) comes round by a quarter turn clockwise, and so on.
	turned := gocv.NewMat()
	defer turned.Close()
	switch k {
	case 0:
		square.CopyTo(&turned)
	case 1:
		gocv.Rotate(square, &turned, gocv.Rotate90Clockwise)
	case 2:
		gocv.Rotate(square, &turned, gocv.Rotate180Clockwise)
	case 3:
		gocv.Rotate(square, &turned, gocv.Rotate90CounterClockwise)
	}
	band := turned.Region(HandBand)
	defer band.Close()
	buf, err := gocv.IMEncode(gocv.JPEGFileExt, band)
	if err != nil {
		return nil, err
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
