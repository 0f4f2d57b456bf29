package tournament

import (
	"errors"
	"fmt"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// Scorer scores one hand request; rulebook.Score unless a caller (a test,
// a service with its own engines) supplies another.
type Scorer func(*scoring.Request) scoring.Result

// Game is the record of one game at one table: who sat where, under which
// rules, and every hand in order. Its running scores always balance: the
// scores and the riichi sticks on the table add up to the starting total.
type Game struct {
	ID    string    `json:"id"`
	Table string    `json:"table"`
	Rules GameRules `json:"rules"`
	// Players by original seat (0 = first dealer).
	Players [4]string    `json:"players"`
	Hands   []HandRecord `json:"hands"`
	// Scores are the running scores; Sticks the riichi sticks on the table.
	Scores [4]int `json:"scores"`
	Sticks int    `json:"sticks"`
	// Entries are record-only notes such as WSM penalty tiles.
	Entries []Penalty `json:"entries,omitempty"`
	// Corrected are the hands as they stood before a referee corrected
	// them, oldest correction first; they no longer count.
	Corrected []HandRecord `json:"corrected,omitempty"`
	// Over is set when the game has ended (naturally, by a bust, or by the
	// organiser); Final is its settlement.
	Over  bool   `json:"over"`
	Final *Final `json:"final,omitempty"`

	// deal is the position in the game: round (0 = East) and dealer, and
	// for fixed-length games the number of hands dealt.
	round, dealer, honba, dealt int
	score                       Scorer
}

// NewGame starts a game under a tournament preset.
func NewGame(id, table, rules string, players [4]string) (*Game, error) {
	if err := CheckID("the game id", id); err != nil {
		return nil, err
	}
	if err := CheckID("the table", table); err != nil {
		return nil, err
	}
	r, err := LookupRules(rules)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, p := range players {
		if p == "" {
			return nil, fmt.Errorf("seat %d has no player", i)
		}
		if err := CheckName(fmt.Sprintf("the player at seat %d", i), p); err != nil {
			return nil, err
		}
		if seen[p] {
			return nil, fmt.Errorf("player %q sits at two seats", p)
		}
		seen[p] = true
	}
	g := &Game{ID: id, Table: table, Rules: r, Players: players, score: rulebook.Score}
	for i := range g.Scores {
		g.Scores[i] = r.StartPoints
	}
	return g, nil
}

// UsePreset scores the game's hands under another preset of its rule set
// (the tournament rules' own when preset is ""); a game takes it before
// its first hand only, so every hand is scored alike.
func (g *Game) UsePreset(preset string) error {
	if preset == "" {
		return nil
	}
	if len(g.Hands) > 0 {
		return errors.New("the game has begun: its preset is chosen when it is created")
	}
	r, err := g.Rules.WithPreset(preset)
	if err != nil {
		return err
	}
	g.Rules = r
	return nil
}

// UseScorer replaces the scoring engine (tests, or a service that scores
// with engines of its own).
func (g *Game) UseScorer(s Scorer) { g.score = s }

// Seat finds a player's original seat.
func (g *Game) Seat(player string) (int, bool) {
	for i, p := range g.Players {
		if p == player {
			return i, true
		}
	}
	return NoSeat, false
}

// SeatWind is the wind player p sits at while dealer deals.
func SeatWind(p, dealer int) scoring.Wind { return scoring.Wind((p - dealer + 4) % 4) }

// seatAt is the original seat of the player sitting at wind w.
func seatAt(w scoring.Wind, dealer int) int { return (int(w) + dealer) % 4 }

// RoundName is "E1".."S4" for the current hand.
func (g *Game) RoundName() string {
	return fmt.Sprintf("%s%d", scoring.Wind(g.round).String(), g.dealer+1)
}

// Dealer is the original seat of the current dealer.
func (g *Game) Dealer() int { return g.dealer }

// Honba is the current repeat counter.
func (g *Game) Honba() int { return g.honba }

// total is what the scores and sticks must always add up to.
func (g *Game) total() int { return 4 * g.Rules.StartPoints }

// Balanced reports whether scores plus sticks on the table equal the
// starting total; an error names the difference.
func (g *Game) Balanced() error {
	sum := g.Sticks * 1000
	for _, s := range g.Scores {
		sum += s
	}
	if sum != g.total() {
		return fmt.Errorf("scores do not balance: %d on the table and in hands, %d expected", sum, g.total())
	}
	return nil
}

// ErrGameOver is returned for a hand reported after the game ended.
var ErrGameOver = errors.New("the game is over: no more hands can be recorded")

// Record settles one hand and appends it to the record. A hand that cannot
// be settled (a seat out of range, a win the engine does not accept)
// changes nothing and returns an error that says why.
func (g *Game) Record(p Play) (*HandRecord, error) {
	s, err := g.Settle(p)
	if err != nil {
		return nil, err
	}
	return g.Apply(s)
}

func (g *Game) checkSeats(p Play) error {
	if err := checkPlayTexts(p); err != nil {
		return err
	}
	in := func(s int) bool { return s >= 0 && s < 4 }
	switch p.Outcome {
	case Win:
		if !in(p.Player) {
			return fmt.Errorf("winner seat %d: seats are 0 to 3", p.Player)
		}
		if p.From != NoSeat && (!in(p.From) || p.From == p.Player) {
			return fmt.Errorf("discarder seat %d: give another seat 0 to 3, or %d for a self-draw", p.From, NoSeat)
		}
		if p.Hand == nil {
			return errors.New("a win needs the winning hand")
		}
		for _, d := range p.DeadHands {
			if d == p.Player {
				return fmt.Errorf("%s has a dead hand and may not win (seed 000)", g.Players[p.Player])
			}
		}
	case Chombo, FalseWin:
		if !in(p.Player) {
			return fmt.Errorf("offender seat %d: seats are 0 to 3", p.Player)
		}
	case Draw:
	default:
		return fmt.Errorf("unknown outcome %s: use win, draw, chombo or false_win", shown(string(p.Outcome)))
	}
	switch p.FalseWinKind {
	case "", scoring.CodeBelowMinimum, scoring.CodeNotAWin:
	default:
		return fmt.Errorf("false_win_kind %s: use %s or %s, or give the declared hand", shown(p.FalseWinKind), scoring.CodeBelowMinimum, scoring.CodeNotAWin)
	}
	if len(p.PoolOfDreams) > 0 && p.Outcome != Draw {
		return errors.New("a Pool of Dreams is earned at an exhaustive draw only")
	}
	for _, list := range [][]int{p.Riichi, p.Tenpai, p.DeadHands, p.PoolOfDreams} {
		seen := map[int]bool{}
		for _, s := range list {
			if !in(s) || seen[s] {
				return fmt.Errorf("seat list %v: each seat 0 to 3 at most once", list)
			}
			seen[s] = true
		}
	}
	return nil
}

// End closes the game and settles it. A game that ended by itself is
// already settled; the organiser may end one early (a time limit).
func (g *Game) End() *Final {
	if g.Final == nil {
		g.Over = true
		g.Final = g.settleFinal()
	}
	return g.Final
}
