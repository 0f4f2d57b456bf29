package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// What a table token may see and do. A table token belongs to one game: it
// sees that game and the game's records, proposes the hand being played
// through its table's camera, and stops working when the game is over.
// Whatever is not its own is answered as if it did not exist, so a table
// learns nothing of other tables.

// maxProposalsPerHand is how often a table may ask its camera to score one
// hand; after that the referee scores it. Every proposal is a permanent
// record, so a table must not be able to flood the record.
const maxProposalsPerHand = 10

const codeTooManyProposals = "too_many_proposals"

// noGame, noRecord and noTable answer what does not exist, and what is
// not the caller's to see, alike.
func noGame() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "no game with this id")
}

func noRecord() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "no record with this id")
}

func noTable() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "no table of this name is registered")
}

// noOverturned answers an overturn of a record that does not exist.
func noOverturned() *fault.Error {
	return fault.New(fault.NotFound, codeNotFound, "the record to overturn does not exist")
}

// gameOverToken answers a table token whose game has ended.
func gameOverToken() *fault.Error {
	return fault.New(fault.Unauthorised, codeUnauthorized, "this table token's game is over, so the token no longer works: the organiser has the results")
}

// sees reports whether the caller may read a record: staff read every
// record, a table token its own game's.
func (who caller) sees(r referee.Record) bool {
	return who.role != roleTable || (r.Table == who.table && r.Game == who.game)
}

// fourSeats are a new game's players: exactly four, since a fifth would
// otherwise be dropped without a word.
func fourSeats(players []string) ([4]string, error) {
	var out [4]string
	if len(players) != len(out) {
		return out, fault.Newf(fault.Invalid, scoring.CodeBadRequest, "a game seats four players, in seat order from the first dealer; %d were given", len(players))
	}
	copy(out[:], players)
	return out, nil
}

// idProblem is invalid input whose message is err's (our own sentences).
func idProblem(err error) *fault.Error {
	return fault.Wrap(err, fault.Invalid, scoring.CodeBadRequest, err.Error())
}

// placeRecord checks where a referee record belongs before it is stored.
// An overturn stays at the record it overturns (table, game and hand are
// taken from it); a new record names a valid table and game, and when the
// game is one of ours, that game's table and a hand already played or the
// one being played.
func (t *tournamentRoutes) placeRecord(ctx context.Context, r *referee.Record) error {
	if r.Overturns != 0 {
		old, err := t.records.Get(ctx, r.Overturns)
		if errors.Is(err, referee.ErrNotFound) {
			return noOverturned()
		}
		if err != nil {
			return err
		}
		if r.Table == "" {
			r.Table = old.Table
		}
		if r.Game == "" {
			r.Game = old.Game
		}
		if r.Hand == 0 {
			r.Hand = old.Hand
		}
		if r.Table != old.Table || r.Game != old.Game || r.Hand != old.Hand {
			return fault.Newf(fault.Invalid, scoring.CodeBadRequest,
				"record %d is about table %q, game %q, hand %d: an overturn stays there (leave table, game and hand out)",
				old.ID, old.Table, old.Game, old.Hand)
		}
		return t.checkPeople(r)
	}
	if err := tournament.CheckID("the record's table", r.Table); err != nil {
		return idProblem(err)
	}
	if r.Game != "" {
		if err := tournament.CheckID("the record's game", r.Game); err != nil {
			return idProblem(err)
		}
	}
	if err := t.checkPeople(r); err != nil {
		return err
	}
	if r.Hand < 0 {
		return fault.New(fault.Invalid, scoring.CodeBadRequest, "hand counts a game's hands from 1 (0: not tied to a hand)")
	}
	if r.Hand > 0 && r.Game == "" {
		return handNeedsGame()
	}
	g, err := t.gameNamed(ctx, r.Game)
	if err != nil {
		return storeProblem(err)
	}
	if g == nil {
		return nil // a game played on paper: the referee's word
	}
	if g.game.Table != r.Table {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "game %s is played at table %q, not %q", r.Game, g.game.Table, r.Table)
	}
	if next := len(g.game.Hands) + 1; r.Hand > next {
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "game %s is at hand %d: name a hand already played or that one", r.Game, next)
	}
	return nil
}

func handNeedsGame() *fault.Error {
	return fault.New(fault.Invalid, scoring.CodeBadRequest, "a hand number needs its game: name the game too")
}

// checkPeople refuses names of people that no one could read.
func (t *tournamentRoutes) checkPeople(r *referee.Record) error {
	if err := tournament.CheckName("asked_by", r.AskedBy); err != nil {
		return idProblem(err)
	}
	if r.Referee != "" {
		if err := tournament.CheckName("referee", r.Referee); err != nil {
			return idProblem(err)
		}
	}
	return nil
}

// proposalPlace is where a score-now proposal goes in the record.
type proposalPlace struct {
	game    string
	hand    int
	askedBy string
	// done counts the table's proposal for good when its record was
	// stored, and gives its slot back when not.
	done func(stored bool)
}

// placeProposal decides who asked, which game and which hand a score-now
// call is for, from the token, never from the body. A table token proposes
// its own game's hand being played; the referee or the organiser any game
// of the table, by default the one being played there (or none when none
// is). The request's rules and preset are the game's when it has one.
func (t *tournamentRoutes) placeProposal(ctx context.Context, who caller, table string, in *scoreNow) (proposalPlace, error) {
	place := proposalPlace{done: func(bool) {}}
	if in.AskedBy != "" {
		return place, fault.New(fault.Invalid, scoring.CodeBadRequest, "leave asked_by out: who asked is taken from your token")
	}
	place.askedBy = string(who.role)
	if who.role == roleTable {
		place.askedBy = "table " + who.table
		if in.Game == "" {
			in.Game = who.game
		}
		if in.Game != who.game {
			return place, noGame()
		}
	}
	if in.Game == "" && in.Hand != 0 {
		return place, handNeedsGame()
	}
	if in.Game == "" {
		game, err := t.gameInPlay(ctx, table)
		if err != nil {
			return place, storeProblem(err)
		}
		in.Game = game
	}
	if in.Game == "" {
		return place, nil
	}
	g, err := t.gameNamed(ctx, in.Game)
	if err != nil {
		return place, storeProblem(err)
	}
	if g == nil || g.game.Table != table {
		return place, fault.New(fault.NotFound, codeNotFound, "no game with this id is played at this table")
	}
	if g.game.Over {
		return place, fault.New(fault.Conflict, scoring.CodeBadRequest, "game "+g.game.ID+" is over: there is no hand to score")
	}
	next := len(g.game.Hands) + 1
	if in.Hand == 0 {
		in.Hand = next
	}
	if in.Hand != next {
		return place, fault.Newf(fault.Conflict, scoring.CodeBadRequest, "game %s is at hand %d: the camera scores the hand being played (leave hand out)", g.game.ID, next)
	}
	rules := g.game.Rules
	if in.Request.Rules == "" {
		in.Request.Rules = rules.Rules
	}
	if in.Request.Preset == "" {
		in.Request.Preset = rules.Preset
	}
	if in.Request.Rules != rules.Rules || in.Request.Preset != rules.Preset {
		return place, fault.Newf(fault.Invalid, scoring.CodeBadRequest, "game %s is played under %s rules (preset %q): leave rules and preset out, or name those", g.game.ID, rules.Rules, rules.Preset)
	}
	place.game, place.hand = g.game.ID, next
	// The camera's seats are the table's chairs, named by the winds their
	// players had at the first hand; the winds move with the dealer.
	if n := g.game.Next(); n != nil {
		if i := strings.Index("ESWN", in.Seat); len(in.Seat) == 1 && i >= 0 && in.Request.SeatWind == "" {
			in.Request.SeatWind = n.SeatWinds[i]
		}
		if in.Request.RoundWind == "" {
			in.Request.RoundWind = n.RoundWind
		}
	}
	if who.role == roleTable {
		// The count lives in the record, so a table's proposals add up
		// whichever replica takes them; a slot still in flight when its
		// replica died counts until the request would have timed out.
		id, err := t.records.ClaimProposal(ctx, g.game.ID, next, maxProposalsPerHand, time.Now(), t.s.claimLease())
		if errors.Is(err, referee.ErrTooManyClaims) {
			return place, fault.Newf(fault.Exhausted, codeTooManyProposals, "the camera proposed hand %d %d times already: ask the referee to score it", next, maxProposalsPerHand)
		}
		if err != nil {
			return place, storeProblem(err)
		}
		place.done = func(stored bool) {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			var err error
			if stored {
				err = t.records.KeepProposal(ctx, id)
			} else {
				err = t.records.ReleaseProposal(ctx, id)
			}
			if err != nil {
				t.s.log.Printf("score-now claim %d of game %s: %v", id, g.game.ID, err)
			}
		}
	}
	return place, nil
}

// gameInPlay is the game being played at a table: the one game there that
// is not over, or "" when there is none or more than one. The caller
// holds t.mu.
func (t *tournamentRoutes) gameInPlay(ctx context.Context, table string) (string, error) {
	games, ids, err := t.allGames(ctx)
	if err != nil {
		return "", err
	}
	found := ""
	for i, g := range games {
		if g.game.Table == table && !g.game.Over {
			if found != "" {
				return "", nil
			}
			found = ids[i]
		}
	}
	return found, nil
}

// quoteID quotes an id for a message, without repeating an overlong one.
func quoteID(id string) string {
	if len(id) > 4*tournament.MaxIDLen {
		return "with an id that long"
	}
	return strconv.Quote(id)
}

func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

type role string

const (
	roleReferee   role = "referee"
	roleOrganizer role = "organizer"
	roleTable     role = "table"
)

// caller is who the token says is asking.
type caller struct {
	role  role
	table string // for roleTable
	game  string
	over  bool // the table token's game has ended
}

const (
	codeUnauthorized = "unauthorized"
	codeForbidden    = "forbidden"
)

// bearerToken is the token of an "Authorization: Bearer <token>" header.
// The scheme's name is case-insensitive (RFC 9110, section 11.1), so
// "bearer" and "BEARER" name it too.
func bearerToken(c echo.Context) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(c.Request().Header.Get(echo.HeaderAuthorization)), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return "", false
	}
	return tok, true
}

// who reads the bearer token. Comparisons take constant time.
func (t *tournamentRoutes) who(c echo.Context) (caller, bool, error) {
	tok, ok := bearerToken(c)
	if !ok {
		return caller{}, false, nil
	}
	eq := func(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
	switch {
	case eq(tok, t.cfg.RefereeToken):
		return caller{role: roleReferee}, true, nil
	case eq(tok, t.cfg.OrganizerToken):
		return caller{role: roleOrganizer}, true, nil
	}
	// The token's hash names the game (a lookup, then checked in
	// constant time).
	hashed := tokenHash(tok)
	g, err := t.gameOfToken(c.Request().Context(), hashed)
	if err != nil {
		return caller{}, false, fault.Wrap(err, fault.Unavailable, codeRecordUnavailable, "the referee record does not answer just now, so a table token cannot be checked: try again in a moment")
	}
	if g != nil && eq(hashed, g.tokenHash) {
		return caller{role: roleTable, table: g.game.Table, game: g.game.ID, over: g.game.Over}, true, nil
	}
	return caller{}, false, nil
}

// need refuses callers without one of the roles: 401 without a known
// token, 403 with a token that may not do this.
func (t *tournamentRoutes) need(roles ...role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			who, ok, err := t.who(c)
			if err != nil {
				return err
			}
			if !ok {
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="mjscan tournament"`)
				return fault.New(fault.Unauthorised, codeUnauthorized, "this needs a referee, organiser or table token: send it as Authorization: Bearer <token>")
			}
			if who.over {
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="mjscan tournament", error="invalid_token"`)
				return gameOverToken()
			}
			for _, r := range roles {
				if who.role == r {
					c.Set("caller", who)
					return next(c)
				}
			}
			article := "a"
			if who.role == roleOrganizer {
				article = "an"
			}
			return fault.Newf(fault.Forbidden, codeForbidden, "%s %s token may not do this; ask the %s", article, who.role, roles[0])
		}
	}
}

func callerOf(c echo.Context) caller {
	who, _ := c.Get("caller").(caller)
	return who
}
