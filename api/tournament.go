package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"mjscan/internal/fault"
	"mjscan/referee"
	"mjscan/scoring"
)

// TournamentConfig holds the tokens of tournament staff. Referee actions
// (recording hands, referee records, overturning a ruling) need the
// referee token; organiser actions (creating and ending games, standings)
// the organiser token. A table sees its own game and records with the
// table token handed out when its game is created, until the game ends.
type TournamentConfig struct {
	RefereeToken   string
	OrganizerToken string
}

// Environment variables of the tournament routes.
const (
	EnvRefereeToken   = EnvPrefix + "REFEREE_TOKEN"
	EnvOrganizerToken = EnvPrefix + "ORGANIZER_TOKEN"
)

// minTokenLen keeps guessable tokens out.
const minTokenLen = 16

// LoadTournamentConfig reads the tokens; every problem is reported at once.
func LoadTournamentConfig(getenv func(string) string) (TournamentConfig, error) {
	c := TournamentConfig{
		RefereeToken:   strings.TrimSpace(getenv(EnvRefereeToken)),
		OrganizerToken: strings.TrimSpace(getenv(EnvOrganizerToken)),
	}
	return c, c.Validate()
}

// Validate checks that both tokens are set, long enough and different.
func (c TournamentConfig) Validate() error {
	var errs []error
	for name, tok := range map[string]string{EnvRefereeToken: c.RefereeToken, EnvOrganizerToken: c.OrganizerToken} {
		if len(tok) < minTokenLen {
			errs = append(errs, fmt.Errorf("%s: set a token of at least %d characters", name, minTokenLen))
		}
	}
	if c.RefereeToken != "" && c.RefereeToken == c.OrganizerToken {
		errs = append(errs, errors.New(EnvRefereeToken+" and "+EnvOrganizerToken+" must differ"))
	}
	return errors.Join(errs...)
}

// MountTournament adds the tournament routes (games, standings, the
// referee record) to the service: the one call that turns them on.
func (s *Server) MountTournament(cfg TournamentConfig, records *referee.Store) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if records == nil {
		return errors.New("the tournament routes need the referee record")
	}
	t := &tournamentRoutes{cfg: cfg, records: records, snapshots: map[string]*tableGame{}, tokens: map[string]string{}, s: s,
		looks: prometheus.NewCounter(prometheus.CounterOpts{Name: "mjscan_table_token_looks_total",
			Help: fmt.Sprintf("Looks through every game's log for a table token this replica had not seen (at most one every %v).", tokenLookGap)})}
	if err := s.metrics.register(t.looks); err != nil {
		return err
	}
	if err := t.report(context.Background()); err != nil {
		return err
	}
	s.idem.share(records)
	for _, r := range t.routeList() {
		s.echo.Add(r.method, r.path, r.handler, r.mw...)
	}
	s.health.database = records.Check
	s.metrics.watchRecord(records)
	return nil
}

type tournamentRoutes struct {
	s       *Server
	cfg     TournamentConfig
	records *referee.Store
	// mu guards the snapshots kept (tournament_state.go), never a write:
	// the record serialises those.
	mu        sync.Mutex
	snapshots map[string]*tableGame
	tokens    map[string]string // table token's hash → game
	// look serialises the looks through every game's log for a table
	// token this replica has not seen (lookForToken); began and lookedAt
	// are when the last look began and the last one that answered began.
	look            sync.Mutex
	began, lookedAt time.Time
	looks           prometheus.Counter
}

func (t *tournamentRoutes) routeList() []route {
	ref, org := t.need(roleReferee), t.need(roleOrganizer)
	// staff is the referee or the organiser: the organiser desk records
	// and corrects a game's hands and scores a hand by camera on its own
	// token, as the referee does.
	staff := t.need(roleReferee, roleOrganizer)
	staffOrTable := t.need(roleReferee, roleOrganizer, roleTable)
	return []route{
		{http.MethodPost, "/v1/games", t.postGame, []echo.MiddlewareFunc{org, t.s.idem.middleware}},
		{http.MethodGet, "/v1/games/:id", t.getGame, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/games/:id/hands", t.postHand, []echo.MiddlewareFunc{staff, t.s.idem.middleware}},
		{http.MethodPost, "/v1/games/:id/hands/:number/correct", t.postCorrection, []echo.MiddlewareFunc{staff, t.s.idem.middleware}},
		{http.MethodPost, "/v1/games/:id/end", t.postEnd, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/games/:id/mjai", t.getMJAI, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/games/:id/table-token", t.getTableToken, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/standings", t.getStandings, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/records", t.postRecord, []echo.MiddlewareFunc{ref, t.s.idem.middleware}},
		{http.MethodGet, "/v1/records", t.getRecords, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/records/:id", t.getRecord, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/records/:id/photo", t.getRecordPhoto, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/records/:id/overturn", t.postOverturn, []echo.MiddlewareFunc{ref, t.s.idem.middleware}},
		{http.MethodPost, "/v1/records/:id/confirm", t.postConfirm, []echo.MiddlewareFunc{staff, t.s.idem.middleware}},
		{http.MethodPost, "/v1/tournaments", t.postTournament, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/tournaments/:id", t.getTournament, []echo.MiddlewareFunc{t.need(roleOrganizer, roleReferee)}},
		{http.MethodPost, "/v1/tournaments/:id/games", t.postTournamentGame, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tournaments/:id/penalties", t.postPenalty, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tables", t.postTable, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/tables/:table", t.getTable, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/tables/:table/calibrate", t.postCalibrate, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/tables/:table/frame", t.getFrame, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tables/:table/score-now", t.postScoreNow, []echo.MiddlewareFunc{t.need(roleReferee, roleOrganizer, roleTable), t.s.idem.middleware}},
	}
}

// bindStrict reads the JSON body into v, refusing unknown fields; what
// names the body in the problem a client sees.
func bindStrict(c echo.Context, what string, v any) error {
	body, err := readJSONBody(c, what)
	if err != nil {
		return err
	}
	return decodeStrict(body, v)
}

func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonProblem(err, v, "the request")
	}
	// What follows the value is refused, as json.Unmarshal does on the
	// other routes: a second hand in the body must not pass unseen.
	end := int(dec.InputOffset())
	if rest := body[end:]; len(bytes.TrimSpace(rest)) > 0 {
		at := end + len(rest) - len(bytes.TrimLeft(rest, " \t\r\n")) + 1
		return fault.Newf(fault.Invalid, scoring.CodeBadRequest, "the request is not valid JSON: something follows it at character %d; send one JSON object only", at)
	}
	return nil
}
