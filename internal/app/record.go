package app

import (
	"errors"

	"mjscan/internal/fault"
	"mjscan/scoring"
	"mjscan/tournament"
)

// RecordHand records one hand of a game: it settles the hand (the game
// does not change), has keep store it (the game's log), then applies it.
// A hand that does not settle, or that keep does not take, leaves the game
// as it was. The caller holds the game's lock throughout.
func RecordHand(g *tournament.Game, p tournament.Play, keep func() error) (*tournament.HandRecord, error) {
	settled, err := g.Settle(p)
	if err != nil {
		return nil, settleFault(err)
	}
	if err := keep(); err != nil {
		return nil, err
	}
	return g.Apply(settled) // settled under the same lock: only a bug fails here
}

// CorrectHand replaces hand n of a game with p, a referee's correction: it
// settles the game with the correction (every later hand settled again;
// the game does not change), has keep store it (the game's log keeps the
// correction beside the hand it corrects), then puts it in place. A
// correction that does not settle, or that keep does not take, leaves the
// game as it was. The caller holds the game's lock throughout.
func CorrectHand(g *tournament.Game, n int, p tournament.Play, keep func() error) (*tournament.HandRecord, error) {
	c, err := g.SettleCorrection(n, p)
	if err != nil {
		return nil, settleFault(err)
	}
	if err := keep(); err != nil {
		return nil, err
	}
	return g.ApplyCorrection(c)
}

func settleFault(err error) error {
	var se *scoring.Error
	if errors.As(err, &se) {
		return fault.Wrap(err, fault.Unprocessable, se.Code, se.Message)
	}
	return fault.Wrap(err, fault.Unprocessable, scoring.CodeBadRequest, err.Error())
}
