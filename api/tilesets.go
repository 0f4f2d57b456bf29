package api

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/vision"
)

// A tile set is a player's own tiles as the service learned them from a
// few confirmed photos (vision.Teach): made from labelled photos, or from
// a recognition the player corrected, and grown with every confirmed hand.
// Recognitions and snap-and-score read with one when the upload names it
// in the field "tile_set". Sets live in the referee database, one row per
// version (the newest in force), so they survive restarts and every
// replica reads the same; the id, long and random, is what lets a player
// reach their set, and anyone may make one.

// Teacher is implemented by a Recognizer that can learn a tile set and
// read photos with one.
type Teacher interface {
	// TeachSet learns the set from the photos, growing base when it is
	// not nil (vision.Teach).
	TeachSet(base *vision.Bank, photos []vision.LabelledPhoto) (*vision.Bank, error)
	// WithSet is a recogniser that reads with the set.
	WithSet(b *vision.Bank) Recognizer
}

// Bounds of teaching.
const (
	// maxTeachPhotos bounds the photos of one request: teaching takes
	// seconds a photo, and the request must end within its deadline.
	maxTeachPhotos = 4
	// maxTeachTiles bounds the labelled tiles of one photo.
	maxTeachTiles = 200
	// maxLabelsSize bounds one labels part (a corrected recognition of
	// maxTeachTiles tiles with its alternatives fits).
	maxLabelsSize = 256 << 10
	// maxSetName bounds a set's name, in characters.
	maxSetName = 80
	// minLabelSide is the smallest box side, in pixels, worth cutting.
	minLabelSide = 4
	// tileSetCache bounds the sets kept ready to read with.
	tileSetCache = 32
	// tileSetLimit is the page size of the organiser's listing.
	tileSetLimit = 100
)

// Problem codes of tile sets.
const (
	codeNoTileSets      = "tile_sets_unavailable"
	codeTileSetOutdated = "tile_set_outdated"
)

// tileSetID is what a set's id looks like: ts_ and 128 random bits.
var tileSetID = regexp.MustCompile(`^ts_[0-9a-f]{32}$`)

func newTileSetID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "ts_" + hex.EncodeToString(b), nil
}

// tileSets are the stored sets and the few kept ready to read with.
type tileSets struct {
	store     *referee.Store
	organizer string
	mu        sync.Mutex
	ready     map[string]*list.Element // "id@version" → *readySet
	order     *list.List               // least recently used first
}

type readySet struct {
	key string
	rec Recognizer
}

// UseTileSets keeps players' tile sets in the referee record: the one call
// that turns the tile-set routes on (without it they answer 503), and
// lets recognitions name a set. With organizerToken set, the organiser may
// also list the sets.
func (s *Server) UseTileSets(store *referee.Store, organizerToken string) error {
	if store == nil {
		return errors.New("tile sets need the referee record")
	}
	s.sets = &tileSets{store: store, organizer: organizerToken, ready: map[string]*list.Element{}, order: list.New()}
	s.idem.share(store)
	if s.health.database == nil {
		s.health.database = store.Check
	}
	s.metrics.watchRecord(store)
	return nil
}

// TileSet is a set's summary: what it learned, never its bank.
type TileSet struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	Version int        `json:"version"`
	Created *time.Time `json:"created,omitempty"`
	Updated *time.Time `json:"updated,omitempty"`
	// Codes are the tiles it was taught, Tiles how many tiles it keeps
	// and Photos how many photos it learned from.
	Codes  []string `json:"codes"`
	Tiles  int      `json:"tiles"`
	Photos int      `json:"photos"`
	// Blurred are the codes it learned only from blurred tiles, and so
	// reads mostly as the models alone read them: a sharper photo of
	// those tiles, added to the set, teaches them better.
	Blurred []string `json:"blurred,omitempty"`
	// Known says the models already read the set (nearly every tile it
	// was taught): its photos are read as they are without a set.
	Known bool `json:"known,omitempty"`
	// Model names the models that taught it: it reads with those.
	Model string `json:"model,omitempty"`
	// Detail says more in words: why a listed set cannot be trusted.
	Detail string `json:"detail,omitempty"`
}

// TileSetResponse is one set and the versions that answered.
type TileSetResponse struct {
	TileSet
	Versions Versions `json:"versions"`
}

// TileSetsPage is one page of the organiser's listing.
type TileSetsPage struct {
	TileSets []TileSet `json:"tile_sets"`
	// NextAfter, when set, is the after= of the next page.
	NextAfter string   `json:"next_after,omitempty"`
	Versions  Versions `json:"versions"`
}

func setSummary(t referee.TileSet) TileSet {
	codes := t.Codes
	if codes == nil {
		codes = []string{}
	}
	created, updated := t.Created, t.At
	return TileSet{ID: t.ID, Name: t.Name, Version: t.Version, Created: &created, Updated: &updated, Codes: codes,
		Tiles: t.Tiles, Photos: t.Photos, Blurred: t.Blurred, Known: t.Known, Model: t.ModelVersion}
}

func (s *Server) setResponse(t referee.TileSet) TileSetResponse {
	return TileSetResponse{TileSet: setSummary(t), Versions: s.versions()}
}

func (s *Server) noTileSets() *fault.Error {
	return fault.New(fault.Unavailable, codeNoTileSets, "this server keeps no tile sets, so it cannot learn or read with yours; photos are read with the tile sets the models know")
}

func noTileSet() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "there is no tile set with this id: check the id you were given when your tiles were taught, or teach them again")
}

// tamperedSet is a set that fails its check (record_tampered, as a
// record that does).
func tamperedSet(err error, detail string) *fault.Error {
	return fault.Wrap(err, fault.Conflict, codeTampered, detail).WithTitle("The tile set cannot be trusted")
}

// teacher is the recogniser that learns sets, or the problem to answer.
func (s *Server) teacher() (Teacher, error) {
	if s.sets == nil {
		return nil, s.noTileSets()
	}
	if err := s.app.CanRecognize(); err != nil {
		return nil, err
	}
	t, ok := s.deps.Recognizer.(Teacher)
	if !ok {
		return nil, fault.New(fault.Unavailable, codeNoTileSets, "this server's recogniser cannot learn tile sets; photos are read with the tile sets the models know")
	}
	return t, nil
}

// current reads the version in force of the set named by id.
func (s *Server) currentSet(ctx context.Context, id string) (referee.TileSet, error) {
	if !tileSetID.MatchString(id) {
		return referee.TileSet{}, noTileSet()
	}
	t, err := s.sets.store.TileSet(ctx, id)
	switch {
	case errors.Is(err, referee.ErrNoTileSet):
		return t, noTileSet()
	case errors.Is(err, referee.ErrTampered):
		s.log.Printf("tile sets: %v", err)
		return t, tamperedSet(err, "this tile set was changed after it was stored, so it cannot be trusted: teach your tiles again (POST /v1/tile-sets)")
	case err != nil:
		return t, storeProblem(err)
	}
	return t, nil
}

// bank loads a version's bank from the record.
func (s *Server) loadBank(ctx context.Context, t referee.TileSet) (*vision.Bank, error) {
	data, err := s.sets.store.TileSetBank(ctx, t)
	if errors.Is(err, referee.ErrTampered) {
		s.log.Printf("tile sets: %v", err)
		return nil, tamperedSet(err, "what this tile set learned was changed after it was stored, so it cannot be trusted: teach your tiles again (POST /v1/tile-sets)")
	}
	if err != nil {
		return nil, storeProblem(err)
	}
	b, err := vision.LoadBank(bytes.NewReader(data))
	if err != nil {
		s.log.Printf("tile sets: %s version %d: %v", t.ID, t.Version, err)
		return nil, outdatedSet(t.ID, "it was kept in a form this version of the service no longer reads")
	}
	return b, nil
}

func outdatedSet(id, why string) *fault.Error {
	return fault.New(fault.Conflict, codeTileSetOutdated, "this tile set cannot be read with: "+why+
		"; add one more confirmed photo to it (POST /v1/tile-sets/"+id+"/photos) and it is taught again, or teach your tiles anew")
}

// ctxTileSet is where a request keeps the set it reads with.
const ctxTileSet = "mjscan.tile_set"

type setReader struct {
	id      string
	version int
	rec     Recognizer
}

// useTileSet reads with the set an upload names in its field "tile_set"
// (the newest version), and notes it for the answer.
func (s *Server) useTileSet(c echo.Context, u *upload) error {
	id := strings.TrimSpace(u.fields["tile_set"])
	if id == "" {
		return nil
	}
	teacher, err := s.teacher()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := s.currentSet(ctx, id)
	if err != nil {
		return err
	}
	rec, err := s.sets.reader(t, func() (Recognizer, error) {
		b, err := s.loadBank(ctx, t)
		if err != nil {
			return nil, err
		}
		// A set taught with other models is read after its head is fitted
		// again on these models' features from the tiles it keeps
		// (vision.Recognizer.WithBank), once a version on each replica;
		// without tiles to fit from it cannot be read with.
		if model := s.versions().Model; t.ModelVersion != "" && model != "" && t.ModelVersion != model {
			if b.Tiles() == 0 {
				return nil, outdatedSet(t.ID, "it was taught with other models than this server reads with, and it keeps no tiles to learn from again")
			}
			s.log.Printf("tile sets: %s version %d was taught with %s; fitting it again for %s from its %d tiles", t.ID, t.Version, t.ModelVersion, model, b.Tiles())
		}
		// The recogniser keeps the set's head and templates, not the
		// tiles it learned them from: the copy kept ready stays small.
		return teacher.WithSet(b), nil
	})
	if err != nil {
		return err
	}
	c.Set(ctxTileSet, &setReader{id: t.ID, version: t.Version, rec: rec})
	return nil
}

// reader is the recogniser ready for a version, loaded by load when it
// is not kept; the least recently used goes when tileSetCache are kept.
func (ts *tileSets) reader(t referee.TileSet, load func() (Recognizer, error)) (Recognizer, error) {
	key := t.ID + "@" + strconv.Itoa(t.Version)
	ts.mu.Lock()
	if e, ok := ts.ready[key]; ok {
		ts.order.MoveToBack(e)
		ts.mu.Unlock()
		return e.Value.(*readySet).rec, nil
	}
	ts.mu.Unlock()
	rec, err := load()
	if err != nil {
		return nil, err
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if e, ok := ts.ready[key]; ok { // loaded meanwhile by another request
		return e.Value.(*readySet).rec, nil
	}
	ts.ready[key] = ts.order.PushBack(&readySet{key: key, rec: rec})
	for ts.order.Len() > tileSetCache {
		old := ts.order.Front()
		ts.order.Remove(old)
		delete(ts.ready, old.Value.(*readySet).key)
	}
	return rec, nil
}

// recognizer is what reads the photos of a request: its tile set's, or
// the service's own.
func (s *Server) recognizer(c echo.Context) Recognizer {
	if r, ok := c.Get(ctxTileSet).(*setReader); ok {
		return r.rec
	}
	return s.deps.Recognizer
}

// withTileSet names the request's tile set in its answer's versions.
func withTileSet(c echo.Context, v Versions) Versions {
	if r, ok := c.Get(ctxTileSet).(*setReader); ok {
		v.TileSet, v.TileSetVersion = r.id, r.version
	}
	return v
}

// teaching is a teaching upload: photos, each with its labels, and on a
// new set its name.
type teaching struct {
	photos []vision.LabelledPhoto
	name   string
	// pixels is the largest photo's, from its header: teaching decodes
	// one photo at a time.
	pixels int64
}

// readTeaching reads a multipart teaching upload: one or more "photo"
// parts, each followed (in the same order) by its "labels" part, and an
// optional "name". The body limit already bounds the whole.
func readTeaching(c echo.Context, named bool) (*teaching, error) {
	ct := c.Request().Header.Get(echo.HeaderContentType)
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, fault.New(fault.Unsupported, codeUnsupportedType, `send the photos as multipart/form-data, each in a field "photo" followed by its field "labels"`)
	}
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) error {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, format, a...)
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var photos [][]byte
	var labels []string
	tch := &teaching{}
	sawName := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bad(`the upload is not a well-formed multipart form; send each photo in a field "photo" followed by its field "labels"`)
		}
		name := part.FormName()
		limit := int64(maxLabelsSize)
		if name == "photo" {
			limit = 1 << 62 // the body limit bounds it
		}
		data, err := io.ReadAll(io.LimitReader(part, limit+1))
		if err != nil {
			return nil, bad("the upload was cut off; please send it again")
		}
		if int64(len(data)) > limit {
			return nil, bad("the field %q is larger than %d KB: send less", name, maxLabelsSize>>10)
		}
		switch name {
		case "photo":
			if len(photos) == maxTeachPhotos {
				return nil, bad("at most %d photos are taught at a time: send the others in another request (POST /v1/tile-sets/{id}/photos)", maxTeachPhotos)
			}
			photos = append(photos, data)
		case "labels":
			labels = append(labels, string(data))
		case "name":
			if !named {
				return nil, bad("a tile set's name is given when it is made; this request adds photos only")
			}
			if sawName {
				return nil, bad(`two fields "name": send one`)
			}
			sawName = true
			if tch.name, err = setName(string(data)); err != nil {
				return nil, err
			}
		default:
			return nil, bad(`the form has a field %q, which teaching does not take: send "photo" and "labels" fields (and "name" for a new set)`, name)
		}
	}
	switch {
	case len(photos) == 0:
		return nil, bad(`no photo: send each photo of your tiles in a field "photo", followed by its field "labels"`)
	case len(labels) != len(photos):
		return nil, bad(`each photo needs its labels: send a field "labels" after each photo, in the same order (photos: %d, labels: %d)`, len(photos), len(labels))
	}
	for i := range photos {
		tch.photos = append(tch.photos, vision.LabelledPhoto{Data: photos[i]})
		if tch.photos[i].Labels, err = parseLabels(labels[i]); err != nil {
			if f, ok := fault.As(err); ok && len(photos) > 1 {
				f.Message = fmt.Sprintf("photo %d: %s", i+1, f.Message)
			}
			return nil, err
		}
	}
	return tch, nil
}

// setName checks a set's name: printable text, at most maxSetName
// characters.
func setName(v string) (string, error) {
	v = strings.TrimSpace(v)
	bad := func(msg string) error { return fault.New(fault.Invalid, scoring.CodeBadRequest, msg) }
	if !utf8.ValidString(v) {
		return "", bad("the set's name is not UTF-8 text: send it as UTF-8")
	}
	if n := utf8.RuneCountInString(v); n > maxSetName {
		return "", bad(fmt.Sprintf("the set's name has %d characters; at most %d are kept: shorten it", n, maxSetName))
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return "", bad("the set's name holds a control character: use printable text only")
		}
	}
	return v, nil
}

// labelTile is one tile of a labels part: what a recognition gives back
// for each tile (its other members, confidence and alternatives, are
// let be), or one the player boxed.
type labelTile struct {
	Tile    string    `json:"tile"`
	Box     []float64 `json:"box"`
	Rotated bool      `json:"rotated"`
}

// parseLabels reads one labels part: a JSON array of tiles
// ({"tile":"3p","box":[x0,y0,x1,y1]}), a recognition whose "tiles" the
// player confirmed, or label-file text (a `CODE x0 y0 x1 y1` line per
// tile, `r` after a tile lying sideways).
func parseLabels(raw string) ([]vision.Labelled, error) {
	bad := func(format string, a ...any) error {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, format, a...)
	}
	text := strings.TrimSpace(raw)
	var tiles []labelTile
	switch {
	case text == "":
		return nil, bad(`the labels are empty: list every tile of the photo with its code and box, as [{"tile":"3p","box":[x0,y0,x1,y1]}, ...] or a "3p x0 y0 x1 y1" line per tile`)
	case text[0] == '[':
		if err := json.Unmarshal([]byte(text), &tiles); err != nil {
			return nil, jsonProblem(err, &tiles, "the labels")
		}
	case text[0] == '{':
		var rec struct {
			Tiles []labelTile `json:"tiles"`
		}
		if err := json.Unmarshal([]byte(text), &rec); err != nil {
			return nil, jsonProblem(err, &rec, "the labels")
		}
		tiles = rec.Tiles
	default:
		sc := bufio.NewScanner(strings.NewReader(text))
		for n := 1; sc.Scan(); n++ {
			f := strings.Fields(sc.Text())
			if len(f) == 0 {
				continue
			}
			if len(f) != 5 && !(len(f) == 6 && f[5] == "r") {
				return nil, bad("labels line %d: write `CODE x0 y0 x1 y1` (and `r` after a tile lying sideways)", n)
			}
			lt := labelTile{Tile: f[0], Rotated: len(f) == 6}
			for _, v := range f[1:5] {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, bad("labels line %d: %q is not a number of pixels", n, v)
				}
				lt.Box = append(lt.Box, x)
			}
			tiles = append(tiles, lt)
		}
		if sc.Err() != nil {
			return nil, bad("the labels have a line too long to read: a `CODE x0 y0 x1 y1` line per tile")
		}
	}
	if len(tiles) == 0 {
		return nil, bad("the labels name no tile: list every tile of the photo with its code and box")
	}
	if len(tiles) > maxTeachTiles {
		return nil, bad("the labels name %d tiles; at most %d are taught from one photo", len(tiles), maxTeachTiles)
	}
	out := make([]vision.Labelled, len(tiles))
	for i, t := range tiles {
		if err := labelCode(t.Tile); err != nil {
			return nil, bad("tile %d: %v", i+1, err)
		}
		if len(t.Box) != 4 {
			return nil, bad("tile %d (%s): its box needs 4 numbers, [x0, y0, x1, y1] in pixels", i+1, t.Tile)
		}
		for _, v := range t.Box {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, bad("tile %d (%s): its box holds something that is not a number of pixels", i+1, t.Tile)
			}
		}
		if t.Box[2]-t.Box[0] < minLabelSide || t.Box[3]-t.Box[1] < minLabelSide {
			return nil, bad("tile %d (%s): its box [%g %g %g %g] is not a tile's box: x0 and y0 are its top left corner, x1 and y1 its bottom right, at least %d pixels apart",
				i+1, t.Tile, t.Box[0], t.Box[1], t.Box[2], t.Box[3], minLabelSide)
		}
		out[i] = vision.Labelled{Tile: t.Tile, Box: [4]float64(t.Box), Rotated: t.Rotated}
	}
	return out, nil
}

// labelCode checks one tile code: a single CONTRACT code (a red five as
// 0m, a back as 0z).
func labelCode(code string) error {
	ts, err := scoring.ParseTiles(code)
	if err != nil || len(ts) != 1 || len(code) != 2 {
		return fmt.Errorf("%q is not a tile code: write one tile as a digit and its suit letter (3p, 7z, 0m for a red five, 0z for a tile's back)", code)
	}
	return nil
}

// checkTeaching checks every photo's header, as a recognition's is, and
// that each box lies inside its photo.
func (s *Server) checkTeaching(t *teaching) error {
	for i, p := range t.photos {
		where := ""
		if len(t.photos) > 1 {
			where = fmt.Sprintf("photo %d: ", i+1)
		}
		px, err := s.app.CheckPhoto(p.Data)
		if err != nil {
			if f, ok := fault.As(err); ok {
				f.Message = where + f.Message
			}
			return err
		}
		t.pixels = max(t.pixels, px)
		cfg, _, _ := image.DecodeConfig(bytes.NewReader(p.Data))
		// A photo may be shown turned (EXIF): its boxes fit it one way.
		if k := outside(p.Labels, cfg.Width, cfg.Height); k >= 0 && outside(p.Labels, cfg.Height, cfg.Width) >= 0 {
			b := p.Labels[k].Box
			return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "%stile %d (%s): its box [%g %g %g %g] lies outside the photo, which is %d×%d pixels: give boxes in the photo's own pixels",
				where, k+1, p.Labels[k].Tile, b[0], b[1], b[2], b[3], cfg.Width, cfg.Height)
		}
	}
	return nil
}

// outside is the first label whose box leaves a w×h photo, or -1.
func outside(labels []vision.Labelled, w, h int) int {
	for i, l := range labels {
		if l.Box[0] < 0 || l.Box[1] < 0 || l.Box[2] > float64(w) || l.Box[3] > float64(h) {
			return i
		}
	}
	return -1
}

// kinds counts the tile codes the photos and base teach between them.
func kinds(t *teaching, base *vision.Bank) int {
	seen := map[string]bool{}
	for _, p := range t.photos {
		for _, l := range p.Labels {
			seen[l.Tile] = true
		}
	}
	if base != nil {
		for _, e := range base.Examples {
			seen[e.Code] = true
		}
	}
	delete(seen, noTileCode)
	return len(seen)
}

// noTileCode is the bank's class of a patch where no tile is.
const noTileCode = "-"

// summarise says what a bank learned: its codes in suit order, those it
// learned only from blurred tiles, its tiles and its photos.
func summarise(b *vision.Bank) (codes, blurred []string, tiles, photos int) {
	seen := map[string]bool{}
	for _, e := range b.Examples {
		if e.Code == noTileCode {
			continue
		}
		if !seen[e.Code] {
			seen[e.Code] = true
			codes = append(codes, e.Code)
		}
	}
	const suits = "mpszfkj"
	sort.Slice(codes, func(i, j int) bool {
		a, b := codes[i], codes[j]
		if a[1] != b[1] {
			return strings.IndexByte(suits, a[1]) < strings.IndexByte(suits, b[1])
		}
		return a[0] < b[0]
	})
	return codes, b.Blurred(), b.Tiles(), len(b.Taught)
}

// teach learns version t of a set from the photos (growing base) on the
// worker pool, and stores it. Teaching cannot be cut short: work that has
// started runs in this goroutine to its end and is stored even when the
// request's deadline passes meanwhile (the answer then comes late).
func (s *Server) teach(c echo.Context, teacher Teacher, t referee.TileSet, base *vision.Bank, tch *teaching) (TileSetResponse, error) {
	for i := range tch.photos {
		tch.photos[i].Name = fmt.Sprintf("v%d.%d", t.Version, i+1)
	}
	t.EngineVersion, t.ModelVersion = s.deps.Version, s.versions().Model
	ctx := c.Request().Context()
	var stored referee.TileSet
	err := s.app.TeachSet(ctx, teacher, base, tch.photos, tch.pixels, func(bank *vision.Bank) error {
		var buf bytes.Buffer
		if err := bank.Save(&buf); err != nil {
			return err
		}
		row := t
		row.Codes, row.Blurred, row.Tiles, row.Photos = summarise(bank)
		row.Known = bank.Known()
		// The set is stored even when the caller has given up waiting.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		var err error
		if stored, err = s.sets.store.AppendTileSet(sctx, row, buf.Bytes()); err != nil && ctx.Err() != nil {
			s.log.Printf("tile sets: %s version %d learned after its request ended, not stored: %v", row.ID, row.Version, err)
		}
		return err
	})
	var p *Problem
	if _, ok := fault.As(err); ok || errors.As(err, &p) {
		return TileSetResponse{}, err // the runner's: busy, past the deadline
	}
	if err != nil {
		return TileSetResponse{}, s.teachProblem(err)
	}
	return s.setResponse(stored), nil
}

// teachProblem says what kind of failure stopped a set being taught or
// stored.
func (s *Server) teachProblem(err error) error {
	switch {
	case errors.Is(err, vision.ErrNothingToTeach):
		return fault.Wrap(err, fault.Unprocessable, scoring.CodeBadRequest, "none of the labelled tiles could be cut out of the photos, or they show fewer than two kinds of tile: check that each box lies around its tile, in the photo's own pixels")
	case errors.Is(err, vision.ErrTooLarge):
		return fault.Wrap(err, fault.TooLarge, codeTooLarge, fmt.Sprintf("a photo is larger than the recogniser reads (%d megapixels): send a smaller photo", vision.MaxMegapixels))
	case errors.Is(err, vision.ErrNotAPhoto):
		return fault.Wrap(err, fault.Unsupported, codeNotAPhoto, "a photo could not be read: send JPEG or PNG images")
	case errors.Is(err, vision.ErrNoFeatures):
		s.log.Printf("error: tile sets: %v", err)
		return fault.Wrap(err, fault.Unavailable, codeNoTileSets, "this server's models cannot learn tile sets; photos are read with the tile sets the models know")
	case errors.Is(err, referee.ErrVersionTaken):
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, "another photo was added to this set at the same moment: send yours again")
	case errors.Is(err, referee.ErrTooManyVersions):
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, fmt.Sprintf("this set has grown as far as it can (%d versions): teach a new set if your tiles changed", referee.MaxTileSetVersions))
	case errors.Is(err, referee.ErrInvalid), errors.Is(err, referee.ErrReadOnly):
		return storeProblem(err)
	}
	// An internal failure: faultProblem logs the cause.
	return fault.Wrap(err, fault.Internal, codeInternal, "the service could not learn your tiles from these photos; please try again, and report it if it keeps happening")
}

// postTileSet makes a set from labelled photos or confirmed recognitions.
func (s *Server) postTileSet(c echo.Context) error {
	teacher, err := s.teacher()
	if err != nil {
		return err
	}
	tch, err := readTeaching(c, true)
	if err != nil {
		return err
	}
	if err := s.checkTeaching(tch); err != nil {
		return err
	}
	if kinds(tch, nil) < 2 {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "a set learns from at least two kinds of tile: label more of the tiles in the photos")
	}
	id, err := newTileSetID()
	if err != nil {
		return err
	}
	resp, err := s.teach(c, teacher, referee.TileSet{ID: id, Version: 1, Name: tch.name}, nil, tch)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, "/v1/tile-sets/"+id)
	return c.JSON(http.StatusCreated, resp)
}

// postTileSetPhotos grows a set with more confirmed photos: a new version.
func (s *Server) postTileSetPhotos(c echo.Context) error {
	teacher, err := s.teacher()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cur, err := s.currentSet(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	tch, err := readTeaching(c, false)
	if err != nil {
		return err
	}
	if err := s.checkTeaching(tch); err != nil {
		return err
	}
	if cur.Version >= referee.MaxTileSetVersions {
		return s.teachProblem(referee.ErrTooManyVersions)
	}
	base, err := s.loadBank(ctx, cur)
	if err != nil {
		return err
	}
	resp, err := s.teach(c, teacher, referee.TileSet{ID: cur.ID, Version: cur.Version + 1, Name: cur.Name}, base, tch)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, resp)
}

func (s *Server) getTileSet(c echo.Context) error {
	if s.sets == nil {
		return s.noTileSets()
	}
	t, err := s.currentSet(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.setResponse(t))
}

// listTileSets lists every set, a page at a time: for the organiser only.
func (s *Server) listTileSets(c echo.Context) error {
	if s.sets == nil {
		return s.noTileSets()
	}
	if s.sets.organizer == "" {
		return fault.New(fault.Forbidden, codeForbidden, "this server lists no tile sets: a set is looked up by its id (GET /v1/tile-sets/{id})")
	}
	tok, ok := bearerToken(c)
	if !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(s.sets.organizer)) != 1 {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="mjscan tournament"`)
		return fault.New(fault.Unauthorised, codeUnauthorized, "listing the tile sets needs the organiser token: send it as Authorization: Bearer <token>")
	}
	after := c.QueryParam("after")
	if after != "" && !tileSetID.MatchString(after) {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "after= takes the next_after of the page before")
	}
	page, more, err := s.sets.store.TileSets(c.Request().Context(), after, tileSetLimit)
	if err != nil {
		return storeProblem(err)
	}
	out := TileSetsPage{TileSets: []TileSet{}, Versions: s.versions()}
	for _, t := range page {
		r := setSummary(t)
		if t.Tampered != "" {
			r.Detail = "this set was changed after it was stored and cannot be trusted"
		}
		out.TileSets = append(out.TileSets, r)
	}
	if more {
		out.NextAfter = page[len(page)-1].ID
	}
	return c.JSON(http.StatusOK, out)
}
