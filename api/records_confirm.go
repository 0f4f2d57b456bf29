package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"mjscan/internal/app"
	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// confirmation is the body of POST /v1/records/{id}/confirm, all of it
// optional: who rules, a note for the ruling, the corrected hand, and the
// win to record in the proposal's game.
type confirmation struct {
	Referee string           `json:"referee,omitempty"`
	Note    string           `json:"note,omitempty"`
	Request *scoring.Request `json:"request,omitempty"`
	Win     *confirmedWin    `json:"win,omitempty"`
}

// confirmedWin records the confirmed hand as its game's hand being
// played: a win by the player at the hand's seat wind, off From (-1: a
// self-draw), with Riichi the hand's riichi declarations.
type confirmedWin struct {
	From   *int  `json:"from"`
	Riichi []int `json:"riichi,omitempty"`
}

// ConfirmResponse is the ruling stored and, when the win was recorded
// with it, the game's hand.
type ConfirmResponse struct {
	Record   referee.Record `json:"record"`
	Hand     *HandResponse  `json:"hand,omitempty"`
	Versions Versions       `json:"versions"`
}

// postConfirm rules on a score-now proposal in one call: as proposed, or
// with the hand corrected (the corrected hand is scored again). The
// ruling is a new record that points at the proposal (its overturns), so
// the proposal stays in the record as it was and its chain says what
// stands; a proposal already ruled on is refused.
func (t *tournamentRoutes) postConfirm(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return noRecord()
	}
	var in confirmation
	body, err := requestBody(c)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := decodeStrict(body, &in); err != nil {
			return err
		}
	}
	if in.Referee != "" {
		if err := tournament.CheckName("referee", in.Referee); err != nil {
			return idProblem(err)
		}
	}
	if err := checkConfirmNote(in.Note); err != nil {
		return err
	}
	ctx := c.Request().Context()
	chain, err := t.records.InForce(ctx, id)
	if errors.Is(err, referee.ErrNotFound) {
		return noRecord()
	}
	if err != nil {
		return storeProblem(err)
	}
	proposal := chain[0]
	if proposal.Tampered != "" {
		return tamperedProblem(proposal.Tampered)
	}
	if proposal.Ruling != app.ProposalRuling {
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "record %d is not a score-now proposal awaiting the referee: overturn it to change its ruling", id)
	}
	if len(chain) > 1 {
		last := chain[len(chain)-1]
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "proposal %d was ruled on already (record %d: %s): overturn that record to change it", id, last.ID, shortText(last.Ruling))
	}
	var proposed scoring.Request
	var result scoring.Result
	if json.Unmarshal(proposal.Request, &proposed) != nil || json.Unmarshal(proposal.Computed, &result) != nil {
		return tamperedProblem(fmt.Sprintf("proposal %d does not hold a readable hand and score: overturn it with the referee's own record", id))
	}
	by := "the " + string(callerOf(c).role)
	ruled, err := t.s.app.Confirm(ctx, proposed, result, in.Request, by, in.Note)
	if err != nil {
		return err
	}
	reqJSON, _ := json.Marshal(ruled.Request)
	resJSON, _ := json.Marshal(ruled.Result)
	rec := proposal
	rec.ID, rec.Digest, rec.LegacyDigest, rec.Photo, rec.PhotoSize = 0, "", "", nil, 0
	rec.Overturns, rec.Referee, rec.Ruling = id, in.Referee, ruled.Ruling
	rec.Request, rec.Computed, rec.EngineVersion = reqJSON, resJSON, t.s.deps.Version
	if ruled.Corrected {
		rec.RuleSet = ruled.Request.Rules + "/" + ruled.Result.Preset
		who := in.Referee
		if who == "" {
			who = string(callerOf(c).role)
		}
		rec.Corrections = append(rec.Corrections, referee.Correction{By: who, From: ruled.From, To: ruled.To, Reason: in.Note})
	}
	if in.Win != nil {
		return t.confirmWin(c, rec, ruled.Request, in.Win)
	}
	stored, err := t.records.Append(ctx, rec)
	if err != nil {
		return confirmStoreProblem(err, id)
	}
	return c.JSON(http.StatusCreated, ConfirmResponse{Record: stored, Versions: t.s.versions()})
}

func confirmStoreProblem(err error, id int64) error {
	if errors.Is(err, referee.ErrAlreadyOverturned) {
		return fault.Wrap(err, fault.Conflict, scoring.CodeBadRequest, fmt.Sprintf("proposal %d was ruled on already: overturn that ruling to change it", id))
	}
	return storeProblem(err)
}

// confirmWin stores the ruling and records the confirmed hand in the
// proposal's game, as the hand being played, in one step: the hand is
// settled first (a hand the game does not take leaves the proposal
// awaiting), then the ruling is stored, then the hand is logged and
// applied.
func (t *tournamentRoutes) confirmWin(c echo.Context, rec referee.Record, req scoring.Request, w *confirmedWin) error {
	if w.From == nil {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "win.from is the seat (0 to 3) of the player who discarded the winning tile, or -1 for a self-draw")
	}
	ctx := c.Request().Context()
	g, err := t.gameNamed(ctx, rec.Game)
	if err != nil {
		return storeProblem(err)
	}
	if g == nil {
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "proposal %d is not for a game of this service: confirm it without win", rec.Overturns)
	}
	if err := handBeingPlayed(g, rec); err != nil {
		return err
	}
	wind, err := scoring.ParseWind(req.SeatWind)
	if err != nil {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "the proposal's hand names no seat wind: confirm it without win, and record the hand with its player")
	}
	hand := req
	p := tournament.Play{Outcome: tournament.Win, Player: g.game.SeatOf(wind), From: *w.From, Riichi: w.Riichi, Hand: &hand}
	// Settle on the snapshot first (it does not change the game): a hand
	// the game does not take leaves the proposal awaiting. Then the ruling
	// is stored, then the hand is logged under the game's lock.
	if _, err := g.game.Settle(p); err != nil {
		return app.SettleFault(err)
	}
	stored, err := t.records.Append(ctx, rec)
	if err != nil {
		return confirmStoreProblem(err, rec.Overturns)
	}
	var handRec *tournament.HandRecord
	g, err = t.changeGame(ctx, rec.Game, func(tx *referee.LogTx, g *tableGame) error {
		if err := handBeingPlayed(g, rec); err != nil {
			return err
		}
		var err error
		handRec, err = app.RecordHand(g.game, p, func() error {
			return appendEntry(tx, rec.Game, logPlay, string(callerOf(c).role), p)
		})
		return err
	})
	if err != nil {
		// The ruling stands; the hand is not in the game.
		code := ""
		if e, ok := fault.As(err); ok {
			code = e.Code
		}
		return fault.Wrap(err, fault.KindOf(err), code, fmt.Sprintf("the ruling is record %d, but the hand could not be added to game %s: record it with POST /v1/games/%s/hands", stored.ID, rec.Game, rec.Game))
	}
	return c.JSON(http.StatusCreated, ConfirmResponse{Record: stored, Versions: t.s.versions(),
		Hand: &HandResponse{Hand: handRec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()}})
}

// handBeingPlayed checks that a proposal is for the hand its game plays now.
func handBeingPlayed(g *tableGame, rec referee.Record) error {
	next := g.game.Next()
	if next == nil || next.Number != rec.Hand {
		return fault.Newf(fault.Conflict, scoring.CodeBadRequest, "proposal %d is for hand %d of game %s, which is not the hand being played: confirm it without win, and correct the game's hands if need be", rec.Overturns, rec.Hand, rec.Game)
	}
	return nil
}

// maxConfirmNote caps a confirmation's note, as a hand's note is capped:
// it goes into the ruling beside the score's summary.
const maxConfirmNote = 500

// checkConfirmNote refuses a note the ruling could not keep, naming the
// note (the record would name the ruling, which the referee never sent).
func checkConfirmNote(note string) error {
	if n := utf8.RuneCountInString(note); n > maxConfirmNote {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "the note is %d characters long: say it in at most %d", n, maxConfirmNote)
	}
	if !utf8.ValidString(note) {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "the note is not UTF-8 text: send it as UTF-8")
	}
	for _, r := range note {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "the note holds a control character (%U): remove it; only tabs and line breaks are allowed in it", r)
		}
	}
	return nil
}

// shortText is a stored text cut for a message.
func shortText(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
