package tournament

import (
	"encoding/json"
	"fmt"
)

// Sheet is what a game is stored and exchanged as: who played under which
// rules and what the table reported, hand by hand. Everything else (the
// scores, the settlement) follows from it by replaying, so a stored game
// can never disagree with its own hands.
type Sheet struct {
	ID      string    `json:"id"`
	Table   string    `json:"table"`
	Rules   string    `json:"rules"`
	Players [4]string `json:"players"`
	Plays   []Play    `json:"plays"`
	// Ended: the organiser closed the game before its natural end.
	Ended bool `json:"ended,omitempty"`
}

// Sheet returns the game's sheet.
func (g *Game) Sheet() Sheet {
	s := Sheet{ID: g.ID, Table: g.Table, Rules: g.Rules.Name, Players: g.Players, Ended: g.Over}
	for _, h := range g.Hands {
		s.Plays = append(s.Plays, h.Play)
	}
	return s
}

// Replay rebuilds a game from its sheet with the given scorer (nil: the
// rulebook). A hand that cannot be settled stops the replay with its number.
func Replay(s Sheet, score Scorer) (*Game, error) {
	g, err := NewGame(s.ID, s.Table, s.Rules, s.Players)
	if err != nil {
		return nil, err
	}
	if score != nil {
		g.UseScorer(score)
	}
	for i, p := range s.Plays {
		if _, err := g.Record(p); err != nil {
			return nil, fmt.Errorf("hand %d: %w", i+1, err)
		}
	}
	if s.Ended {
		g.End()
	}
	return g, nil
}

// DecodeSheet reads a game sheet from JSON and replays it.
func DecodeSheet(data []byte, score Scorer) (*Game, error) {
	var s Sheet
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("game sheet: %w", err)
	}
	// Four seats would take the first four of five players and say
	// nothing; count them as given.
	var seats struct {
		Players []json.RawMessage `json:"players"`
	}
	if err := json.Unmarshal(data, &seats); err != nil || len(seats.Players) != 4 {
		return nil, fmt.Errorf("game sheet: a game seats four players, not %d", len(seats.Players))
	}
	return Replay(s, score)
}
