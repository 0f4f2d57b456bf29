package tournament

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxIDLen caps ids and names: a game, table or tournament id travels in
// URL paths and database keys, a player's name in every standings line.
const MaxIDLen = 64

// MaxPenaltyPoints is the largest score penalty. Seed 000's penalties are
// a few points (a dropped tile 2 a tile, talk up to 10); the bound keeps a
// mistyped or hostile number from wrapping the totals around.
const MaxPenaltyPoints = 1000

// maxReasonLen caps a penalty's reason.
const maxReasonLen = 500

// CheckID refuses an id that could not be used as one path segment of an
// address: ids keep to letters, digits, spaces, '-', '_' and '.', begin
// with a letter or digit, do not end with a space and are at most
// MaxIDLen characters. what names the id in the message ("game id").
func CheckID(what, id string) error {
	if err := checkLength(what, id); err != nil {
		return err
	}
	first, _ := utf8.DecodeRuneInString(id)
	if !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return fmt.Errorf("%s %q: begin it with a letter or a digit", what, id)
	}
	if strings.HasSuffix(id, " ") {
		return fmt.Errorf("%s %q: do not end it with a space", what, id)
	}
	for _, r := range id {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_.", r) {
			return fmt.Errorf("%s %q: use letters, digits, spaces, '-', '_' and '.' only (not %q)", what, id, r)
		}
	}
	return nil
}

// CheckName refuses a player's name that is blank, too long or holds
// control characters; any other character is fine.
func CheckName(what, name string) error {
	if err := checkLength(what, name); err != nil {
		return err
	}
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%s is blank: give a name", what)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return fmt.Errorf("%s %q: a name holds no control characters or broken UTF-8", what, name)
		}
	}
	return nil
}

// checkLength refuses empty and overlong values without repeating an
// overlong one in the message.
func checkLength(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s is missing", what)
	}
	if n := utf8.RuneCountInString(s); n > MaxIDLen {
		return fmt.Errorf("%s is %d characters long: at most %d", what, n, MaxIDLen)
	}
	return nil
}

// checkPenalty refuses a penalty whose numbers or texts are out of range.
func checkPenalty(p Penalty) error {
	if p.Points < 1 || p.Points > MaxPenaltyPoints {
		return fmt.Errorf("a score penalty deducts 1 to %d points, not %d", MaxPenaltyPoints, p.Points)
	}
	switch Stage(p.Stage) {
	case "", Qualifier, Finals:
	default:
		return fmt.Errorf("stage %.20q: a penalty counts in the %q or the %q stage", p.Stage, Qualifier, Finals)
	}
	if n := utf8.RuneCountInString(p.Reason); n > maxReasonLen {
		return fmt.Errorf("the reason is %d characters long: say it in at most %d", n, maxReasonLen)
	}
	if p.Game != "" {
		if err := CheckID("the penalty's game", p.Game); err != nil {
			return err
		}
	}
	return nil
}

// maxNoteLen caps a hand's note and its penalty tiles: a line on a score
// sheet, not a document.
const (
	maxNoteLen         = 500
	maxPenaltyTilesLen = 100
)

// shown quotes a value for a message, cut to a few dozen characters: a
// message repeats what a player sent so they can find it, never the whole
// of an overlong value.
func shown(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	r := []rune(s)
	return fmt.Sprintf("%q…", string(r[:max]))
}

// checkPlayTexts refuses a hand's free texts and seat lists when they are
// longer than a score sheet has room for, saying how long they are and
// what is allowed, without repeating them.
func checkPlayTexts(p Play) error {
	if n := utf8.RuneCountInString(p.Note); n > maxNoteLen {
		return fmt.Errorf("the note is %d characters long: say it in at most %d", n, maxNoteLen)
	}
	if n := utf8.RuneCountInString(p.PenaltyTiles); n > maxPenaltyTilesLen {
		return fmt.Errorf("penalty_tiles is %d characters long: list the penalty tiles in at most %d", n, maxPenaltyTilesLen)
	}
	for _, l := range []struct {
		name  string
		seats []int
	}{{"riichi", p.Riichi}, {"tenpai", p.Tenpai}, {"dead_hands", p.DeadHands}, {"pool_of_dreams", p.PoolOfDreams}} {
		if len(l.seats) > 4 {
			return fmt.Errorf("%s lists %d seats: a table has four, name each seat 0 to 3 at most once", l.name, len(l.seats))
		}
	}
	return nil
}
