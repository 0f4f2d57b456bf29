package scoring

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Request is the CONTRACT hand request (section 3), exactly as it travels in
// JSON. Absent booleans are false and absent numbers 0.
type Request struct {
	ID      string         `json:"id"`
	Rules   string         `json:"rules"`
	Preset  string         `json:"preset,omitempty"`
	Options map[string]any `json:"options,omitempty"`
	// Notation names the tile notation of the tile strings: "" (CONTRACT
	// codes) or a notation a rule set offers, such as "mcr".
	Notation string `json:"notation,omitempty"`

	Hand              string      `json:"hand"`
	WinTile           string      `json:"win_tile"`
	Melds             []MeldSpec  `json:"melds,omitempty"`
	Flowers           string      `json:"flowers,omitempty"`
	Nuki              int         `json:"nuki,omitempty"`
	DoraIndicators    string      `json:"dora_indicators,omitempty"`
	UraDoraIndicators string      `json:"ura_dora_indicators,omitempty"`
	Tsumo             bool        `json:"tsumo,omitempty"`
	Riichi            bool        `json:"riichi,omitempty"`
	DoubleRiichi      bool        `json:"double_riichi,omitempty"`
	Ippatsu           bool        `json:"ippatsu,omitempty"`
	Rinshan           bool        `json:"rinshan,omitempty"`
	DoubleKong        bool        `json:"double_kong,omitempty"`
	Chankan           bool        `json:"chankan,omitempty"`
	Haitei            bool        `json:"haitei,omitempty"`
	Houtei            bool        `json:"houtei,omitempty"`
	Tenhou            bool        `json:"tenhou,omitempty"`
	Chiihou           bool        `json:"chiihou,omitempty"`
	Renhou            bool        `json:"renhou,omitempty"`
	LastTileOfKind    bool        `json:"last_tile_of_kind,omitempty"`
	SeatWind          string      `json:"seat_wind,omitempty"`
	RoundWind         string      `json:"round_wind,omitempty"`
	Honba             int         `json:"honba,omitempty"`
	RiichiSticks      int         `json:"riichi_sticks,omitempty"`
	Extra             *RequestExt `json:"extra,omitempty"`
}

// RequestExt carries what only some rule sets read (the other players'
// hands for a whole-table settlement, say). Each rule set documents the
// fields it uses.
type RequestExt struct {
	// Players are the losers' hands, for rule sets that score every hand at
	// the table (Chinese Classical). Each is a hand request of its own.
	Players []Request `json:"players,omitempty"`
	// Discarder is the seat wind of the player who dealt in, when known.
	Discarder string `json:"discarder,omitempty"`
}

// MeldSpec is one meld of a Request.
type MeldSpec struct {
	Type  string `json:"type"`
	Tiles string `json:"tiles"`
	From  string `json:"from,omitempty"`
}

// DecodeRequest reads one JSON hand request. Unknown fields are allowed
// (the corpora carry "expect"); malformed JSON is a bad_request.
func DecodeRequest(b []byte) (Request, *Error) {
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		return r, Errorf(CodeBadRequest, "request is not valid JSON for a hand request: %v", err)
	}
	return r, nil
}

// maxMelds bounds the meld list: no rule set allows more than four (American
// exposures can be up to four as well).
const maxMelds = 6

// ParseHand turns the tile strings and flags of a Request into a Hand,
// checking tile codes, meld shapes and the winning tile. It does not check
// the tile count or whether the hand wins: that depends on the rule set.
func ParseHand(r *Request) (*Hand, *Error) {
	h := &Hand{}
	var err error
	if h.Concealed, err = ParseTiles(r.Hand); err != nil {
		return nil, Errorf(CodeBadRequest, "hand: %v", err)
	}
	if r.WinTile == "" {
		if len(h.Concealed) == 0 {
			return nil, Errorf(CodeBadRequest, "the hand is empty: give the concealed tiles in \"hand\"")
		}
		h.Win = h.Concealed[len(h.Concealed)-1]
	} else {
		if h.Win, err = ParseTile(r.WinTile); err != nil {
			return nil, Errorf(CodeBadRequest, "win_tile: %v", err)
		}
		if !containsKind(h.Concealed, h.Win) {
			return nil, Errorf(CodeBadRequest, "win_tile %s is not in the hand: \"hand\" holds the concealed tiles with the winning tile included", h.Win)
		}
	}
	if len(r.Melds) > maxMelds {
		return nil, Errorf(CodeBadRequest, "%d melds: a hand has at most %d", len(r.Melds), maxMelds)
	}
	for i, ms := range r.Melds {
		m, e := parseMeldSpec(ms)
		if e != nil {
			return nil, Errorf(CodeBadRequest, "melds[%d]: %s", i, e.Message)
		}
		h.Melds = append(h.Melds, m)
	}
	if h.Flowers, err = ParseTiles(r.Flowers); err != nil {
		return nil, Errorf(CodeBadRequest, "flowers: %v", err)
	}
	if h.DoraIndicators, err = ParseTiles(r.DoraIndicators); err != nil {
		return nil, Errorf(CodeBadRequest, "dora_indicators: %v", err)
	}
	if h.UraIndicators, err = ParseTiles(r.UraDoraIndicators); err != nil {
		return nil, Errorf(CodeBadRequest, "ura_dora_indicators: %v", err)
	}
	if r.Nuki < 0 || r.Nuki > 4 {
		return nil, Errorf(CodeBadRequest, "nuki %d: between 0 and 4 north winds can be set aside", r.Nuki)
	}
	if r.Honba < 0 || r.Honba > 1000 || r.RiichiSticks < 0 || r.RiichiSticks > 1000 {
		return nil, Errorf(CodeBadRequest, "honba and riichi_sticks must be between 0 and 1000")
	}
	h.Nuki = r.Nuki
	h.Situation = Situation{
		Tsumo: r.Tsumo, Riichi: r.Riichi, DoubleRiichi: r.DoubleRiichi, Ippatsu: r.Ippatsu,
		Rinshan: r.Rinshan, DoubleKong: r.DoubleKong, Chankan: r.Chankan, Haitei: r.Haitei, Houtei: r.Houtei,
		Tenhou: r.Tenhou, Chiihou: r.Chiihou, Renhou: r.Renhou, LastTileOfKind: r.LastTileOfKind,
		Honba: r.Honba, RiichiSticks: r.RiichiSticks,
	}
	if r.SeatWind != "" {
		if h.Seat, err = ParseWind(r.SeatWind); err != nil {
			return nil, Errorf(CodeBadRequest, "seat_wind: %v", err)
		}
	}
	if r.RoundWind != "" {
		if h.Round, err = ParseWind(r.RoundWind); err != nil {
			return nil, Errorf(CodeBadRequest, "round_wind: %v", err)
		}
	}
	return h, nil
}

func parseMeldSpec(ms MeldSpec) (Meld, *Error) {
	var m Meld
	var err error
	if m.Type, err = ParseMeldType(ms.Type); err != nil {
		return m, Errorf(CodeBadRequest, "%v", err)
	}
	if m.Tiles, err = ParseTiles(ms.Tiles); err != nil {
		return m, Errorf(CodeBadRequest, "%v", err)
	}
	if m.From, err = ParseFrom(ms.From); err != nil {
		return m, Errorf(CodeBadRequest, "%v", err)
	}
	if m.Type == Ankan {
		m.From = FromNone
	}
	return m, nil
}

// CheckMeldShapes refuses melds whose tiles do not form their type in a
// standard (joker-free) game.
func (h *Hand) CheckMeldShapes() *Error {
	for i, m := range h.Melds {
		want := 3
		if m.IsKong() {
			want = 4
		}
		if len(m.Tiles) != want {
			return Errorf(CodeBadRequest, "melds[%d]: a %s has %d tiles, got %d (%s)", i, m.Type, want, len(m.Tiles), FormatTiles(m.Tiles))
		}
		for _, t := range m.Tiles {
			if !t.Playing() {
				return Errorf(CodeBadRequest, "melds[%d]: %s cannot be part of a %s", i, t, m.Type)
			}
		}
		if m.Type == Chi {
			if !isRun(m.Tiles) {
				return Errorf(CodeBadRequest, "melds[%d]: a chi is three consecutive tiles of one suit, got %s", i, FormatTiles(m.Tiles))
			}
			continue
		}
		for _, t := range m.Tiles[1:] {
			if t.Kind() != m.Tiles[0].Kind() {
				return Errorf(CodeBadRequest, "melds[%d]: a %s is one tile repeated, got %s", i, m.Type, FormatTiles(m.Tiles))
			}
		}
	}
	return nil
}

func containsKind(ts []Tile, t Tile) bool {
	for _, x := range ts {
		if x == t || (x.Kind() == t.Kind() && !t.IsRed()) {
			return true
		}
	}
	return false
}

// Option helpers: options arrive as JSON values; a rule set reads them with
// these so that a wrong type is a clear error, not a silent default.

// BoolOption reads options[name] as a boolean, with def when absent.
func BoolOption(opts map[string]any, name string, def bool) (bool, *Error) {
	v, ok := opts[name]
	if !ok || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		if b, err := strconv.ParseBool(x); err == nil {
			return b, nil
		}
	}
	return def, Errorf(CodeBadRequest, "option %s: want true or false, got %v", name, v)
}

// IntOption reads options[name] as an integer, with def when absent.
func IntOption(opts map[string]any, name string, def int) (int, *Error) {
	v, ok := opts[name]
	if !ok || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	case int:
		return x, nil
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n, nil
		}
	}
	return def, Errorf(CodeBadRequest, "option %s: want a whole number, got %v", name, v)
}

// StringOption reads options[name] as a string, with def when absent.
func StringOption(opts map[string]any, name string, def string) (string, *Error) {
	v, ok := opts[name]
	if !ok || v == nil {
		return def, nil
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return def, Errorf(CodeBadRequest, "option %s: want a string, got %s", name, fmt.Sprint(v))
}
