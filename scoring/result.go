package scoring

import "fmt"

// Error codes of the CONTRACT (section 4).
const (
	CodeBadRequest     = "bad_request"
	CodeNotAWin        = "not_a_winning_hand"
	CodeNoYaku         = "no_yaku"
	CodeBelowMinimum   = "below_minimum"
	CodeTooManyCopies  = "too_many_copies"
	CodeWrongTileCount = "wrong_tile_count"
)

// Error is a CONTRACT error: a code for programs and a message for players.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Result is the CONTRACT result (section 4). Fields that a rule set does not
// use stay at their zero value; each rule set adds its own Breakdown.
type Result struct {
	ID    string `json:"id"`
	OK    bool   `json:"ok"`
	Rules string `json:"rules"`
	// Preset is the rule preset that was applied.
	Preset string `json:"preset,omitempty"`

	// Riichi and sanma.
	Han     int    `json:"han"`
	Fu      int    `json:"fu"`
	Yakuman int    `json:"yakuman"`
	Limit   string `json:"limit"`
	Yaku    []Yaku `json:"yaku"`

	Points Points `json:"points"`

	// MCR (and HK faan).
	Fan  int   `json:"fan"`
	Fans []Fan `json:"fans"`

	// Value is the hand's value in the rule sets that count one (Zung
	// Jung, WSM, American), nil in the others. A hand below the minimum
	// still carries it, as an MCR hand carries its fan.
	Value *int `json:"value,omitempty"`
	// Score is the hand's score in classical and Vietnamese.
	Score    int       `json:"score,omitempty"`
	Patterns []Pattern `json:"patterns,omitempty"`

	// Breakdown is the rule set's own explanation (fu items, arrangement,
	// substitutions, …).
	Breakdown any `json:"breakdown,omitempty"`

	// Waits and Shanten explain a hand that does not win (shanten ≥ 0) or
	// list what the hand waited on.
	Shanten *int   `json:"shanten,omitempty"`
	Waits   string `json:"waits,omitempty"`

	Error *Error `json:"error"`
}

// Yaku is one riichi yaku with its Tenhou id.
type Yaku struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Han     int    `json:"han"`
	Yakuman int    `json:"yakuman,omitempty"`
}

// Fan is one MCR fan (or HK pattern) with its official id.
type Fan struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Fan   int    `json:"fan"`
	Count int    `json:"count"`
}

// Pattern is one named scoring item of rule sets that count points
// (Zung Jung, WSM, classical, Vietnamese, American).
type Pattern struct {
	Name   string `json:"name"`
	Points int    `json:"points,omitempty"`
	// Doubles is the number of doublings (classical style).
	Doubles int `json:"doubles,omitempty"`
	// Detail says which set or tile earned it.
	Detail string `json:"detail,omitempty"`
}

// Points is what changes hands.
type Points struct {
	Total    int       `json:"total"`
	Payments []Payment `json:"payments,omitempty"`
}

// Payment is one player's payment to the winner (or to another player).
type Payment struct {
	From   string `json:"from"`
	To     string `json:"to,omitempty"`
	Amount int    `json:"amount"`
	Note   string `json:"note,omitempty"`
}

// Fail builds a failed Result for a request.
func Fail(r *Request, e *Error) Result {
	return Result{ID: r.ID, OK: false, Rules: r.Rules, Error: e}
}
