package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"mjscan/calibration"
	"mjscan/internal/app"
	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
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
	t := &tournamentRoutes{cfg: cfg, records: records, games: map[string]*tableGame{}, tables: map[string]*tableSetup{}, tours: map[string]*tourState{}, s: s}
	if err := t.load(context.Background()); err != nil {
		return err
	}
	if err := t.loadTables(context.Background()); err != nil {
		return err
	}
	for _, r := range t.routeList() {
		s.echo.Add(r.method, r.path, r.handler, r.mw...)
	}
	s.health.database = records.Check
	return nil
}

type tournamentRoutes struct {
	s       *Server
	cfg     TournamentConfig
	records *referee.Store
	mu      sync.Mutex
	games   map[string]*tableGame
	order   []string
	tables  map[string]*tableSetup
	tours   map[string]*tourState
}

// tableGame is a game being played, the hash of its table's token and the
// length of its log. Each change is written to the game's log in the
// referee store before it is answered, and games are rebuilt from their
// logs when the service starts.
type tableGame struct {
	game      *tournament.Game
	tokenHash string
	logged    int
	// proposed counts the table's score-now proposals by hand number.
	proposed map[int]int
	// tampered says why the game's log cannot be trusted past the entries
	// replayed (the store then refuses new entries).
	tampered string
}

// gameStart is the first entry of a game's log.
type gameStart struct {
	ID          string    `json:"id"`
	Table       string    `json:"table"`
	Rules       string    `json:"rules"`
	Players     [4]string `json:"players"`
	TokenSHA256 string    `json:"table_token_sha256"`
}

// Kinds of game log entries.
const (
	logStart = "start"
	logPlay  = "play"
	logEnd   = "end"
)

func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// load rebuilds every game from its log. A hand that no longer settles
// (an engine changed its mind) stops that game's replay there; the log
// itself is untouched and the problem goes to the log.
func (t *tournamentRoutes) load(ctx context.Context) error {
	logs, err := t.records.GameLogs(ctx)
	if err != nil {
		return fmt.Errorf("reading game logs: %w", err)
	}
	var tourLogs [][]referee.GameEvent
	for _, gl := range logs {
		if gl.Tampered != "" {
			t.s.log.Printf("%s", gl.Tampered)
		}
		log := gl.Events
		if len(log) == 0 {
			continue // its first entry fails: nothing to rebuild from
		}
		if log[0].Kind == logTournament {
			tourLogs = append(tourLogs, log)
			continue
		}
		var st gameStart
		if log[0].Kind != logStart || json.Unmarshal(log[0].Body, &st) != nil {
			t.s.log.Printf("game %s: its log does not begin with the game's start; not loaded", log[0].Game)
			continue
		}
		g, err := tournament.NewGame(st.ID, st.Table, st.Rules, st.Players)
		if err != nil {
			t.s.log.Printf("game %s: %v; not loaded", st.ID, err)
			continue
		}
		tg := &tableGame{game: g, tokenHash: st.TokenSHA256, logged: len(log), tampered: gl.Tampered}
		for _, e := range log[1:] {
			switch e.Kind {
			case logPlay:
				var p tournament.Play
				if err := json.Unmarshal(e.Body, &p); err == nil {
					_, err = g.Record(p)
				}
				if err != nil {
					t.s.log.Printf("game %s entry %d: %v; replay stopped", st.ID, e.Seq, err)
				}
			case logEnd:
				g.End()
			}
		}
		t.games[st.ID] = tg
		t.order = append(t.order, st.ID)
	}
	for _, log := range tourLogs {
		t.loadTournament(log)
	}
	return nil
}

// logEntry writes the next entry of a game's log.
func (t *tournamentRoutes) logEntry(ctx context.Context, logged *int, name, kind, by string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if _, err := t.records.AppendGameEvent(ctx, referee.GameEvent{Game: name, Seq: *logged + 1, Kind: kind, By: by, Body: b}); err != nil {
		return storeProblem(err)
	}
	*logged++
	return nil
}

func (t *tournamentRoutes) routeList() []route {
	ref, org := t.need(roleReferee), t.need(roleOrganizer)
	staffOrTable := t.need(roleReferee, roleOrganizer, roleTable)
	return []route{
		{http.MethodPost, "/v1/games", t.postGame, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/games/:id", t.getGame, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/games/:id/hands", t.postHand, []echo.MiddlewareFunc{ref}},
		{http.MethodPost, "/v1/games/:id/end", t.postEnd, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/games/:id/mjai", t.getMJAI, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/standings", t.getStandings, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/records", t.postRecord, []echo.MiddlewareFunc{ref}},
		{http.MethodGet, "/v1/records", t.getRecords, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/records/:id", t.getRecord, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodGet, "/v1/records/:id/photo", t.getRecordPhoto, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/records/:id/overturn", t.postOverturn, []echo.MiddlewareFunc{ref}},
		{http.MethodPost, "/v1/tournaments", t.postTournament, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/tournaments/:id", t.getTournament, []echo.MiddlewareFunc{t.need(roleOrganizer, roleReferee)}},
		{http.MethodPost, "/v1/tournaments/:id/games", t.postTournamentGame, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tournaments/:id/penalties", t.postPenalty, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tables", t.postTable, []echo.MiddlewareFunc{org}},
		{http.MethodGet, "/v1/tables/:table", t.getTable, []echo.MiddlewareFunc{staffOrTable}},
		{http.MethodPost, "/v1/tables/:table/calibrate", t.postCalibrate, []echo.MiddlewareFunc{org}},
		{http.MethodPost, "/v1/tables/:table/score-now", t.postScoreNow, []echo.MiddlewareFunc{t.need(roleReferee, roleTable)}},
	}
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

// who reads the bearer token. Comparisons take constant time.
func (t *tournamentRoutes) who(c echo.Context) (caller, bool) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return caller{}, false
	}
	eq := func(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
	switch {
	case eq(tok, t.cfg.RefereeToken):
		return caller{role: roleReferee}, true
	case eq(tok, t.cfg.OrganizerToken):
		return caller{role: roleOrganizer}, true
	}
	hashed := tokenHash(tok)
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, g := range t.games {
		if eq(hashed, g.tokenHash) {
			return caller{role: roleTable, table: g.game.Table, game: id, over: g.game.Over}, true
		}
	}
	return caller{}, false
}

// need refuses callers without one of the roles: 401 without a known
// token, 403 with a token that may not do this.
func (t *tournamentRoutes) need(roles ...role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			who, ok := t.who(c)
			if !ok {
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="mjscan tournament"`)
				return problem(http.StatusUnauthorized, codeUnauthorized, "this needs a referee, organiser or table token: send it as Authorization: Bearer <token>")
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
			return problem(http.StatusForbidden, codeForbidden, fmt.Sprintf("a %s token may not do this; ask the %s", who.role, roles[0]))
		}
	}
}

func callerOf(c echo.Context) caller {
	who, _ := c.Get("caller").(caller)
	return who
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
	return nil
}

type newGame struct {
	ID      string   `json:"id"`
	Table   string   `json:"table"`
	Rules   string   `json:"rules"`
	Players []string `json:"players"`
}

// GameResponse is a game with, on creation only, its table token.
type GameResponse struct {
	*tournament.Game
	TableToken string `json:"table_token,omitempty"`
	// Tampered says why the game's log cannot be trusted: the game stands
	// as its log was before the entry that fails, and takes no more hands.
	Tampered string   `json:"tampered,omitempty"`
	Versions Versions `json:"versions"`
}

func (t *tournamentRoutes) postGame(c echo.Context) error {
	var in newGame
	if err := bindStrict(c, "the game (id, table, rules, players)", &in); err != nil {
		return err
	}
	if in.ID == "" || in.Table == "" || strings.HasPrefix(in.ID, tournamentLogPrefix) {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "a game needs an id (not starting with "+tournamentLogPrefix+") and a table")
	}
	players, err := fourSeats(in.Players)
	if err != nil {
		return err
	}
	g, err := tournament.NewGame(in.ID, in.Table, in.Rules, players)
	if err != nil {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, err.Error())
	}
	tok := make([]byte, 18)
	if _, err := rand.Read(tok); err != nil {
		return err
	}
	token := "table-" + hex.EncodeToString(tok)
	tg := &tableGame{game: g, tokenHash: tokenHash(token)}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.games[in.ID]; dup {
		return problem(http.StatusConflict, scoring.CodeBadRequest, "a game with this id exists already")
	}
	start := gameStart{ID: in.ID, Table: in.Table, Rules: in.Rules, Players: players, TokenSHA256: tg.tokenHash}
	if err := t.logEntry(c.Request().Context(), &tg.logged, in.ID, logStart, string(callerOf(c).role), start); err != nil {
		if errors.Is(err, referee.ErrSeqTaken) {
			return problem(http.StatusConflict, scoring.CodeBadRequest, "a game with this id exists already")
		}
		return err
	}
	t.games[in.ID] = tg
	t.order = append(t.order, in.ID)
	return c.JSON(http.StatusCreated, GameResponse{Game: g, TableToken: token, Versions: t.s.versions()})
}

// game finds a game the caller may see.
func (t *tournamentRoutes) game(c echo.Context) (*tableGame, error) {
	t.mu.Lock()
	g, ok := t.games[c.Param("id")]
	t.mu.Unlock()
	who := callerOf(c)
	if !ok || (who.role == roleTable && who.game != c.Param("id")) {
		// A table never learns whether another table's game exists.
		return nil, noGame()
	}
	return g, nil
}

func (t *tournamentRoutes) getGame(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return c.JSON(http.StatusOK, GameResponse{Game: g.game, Tampered: g.tampered, Versions: t.s.versions()})
}

// HandResponse is one settled hand.
type HandResponse struct {
	Hand     *tournament.HandRecord `json:"hand"`
	Scores   [4]int                 `json:"scores"`
	Sticks   int                    `json:"sticks"`
	Over     bool                   `json:"over"`
	Versions Versions               `json:"versions"`
}

func (t *tournamentRoutes) postHand(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	var p tournament.Play
	if err := bindStrict(c, "the hand's outcome", &p); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, err := g.game.Record(p)
	if err != nil {
		var se *scoring.Error
		if errors.As(err, &se) {
			return problem(http.StatusUnprocessableEntity, se.Code, se.Message)
		}
		return problem(http.StatusUnprocessableEntity, scoring.CodeBadRequest, err.Error())
	}
	if err := t.logEntry(c.Request().Context(), &g.logged, g.game.ID, logPlay, string(callerOf(c).role), p); err != nil {
		// Not stored, so not recorded: take the hand back off the game.
		sheet := g.game.Sheet()
		sheet.Plays, sheet.Ended = sheet.Plays[:len(sheet.Plays)-1], false
		if back, rerr := tournament.Replay(sheet, nil); rerr == nil {
			g.game = back
		}
		return err
	}
	return c.JSON(http.StatusCreated, HandResponse{Hand: rec, Scores: g.game.Scores, Sticks: g.game.Sticks, Over: g.game.Over, Versions: t.s.versions()})
}

func (t *tournamentRoutes) postEnd(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !g.game.Over {
		if err := t.logEntry(c.Request().Context(), &g.logged, g.game.ID, logEnd, string(callerOf(c).role), map[string]bool{"ended": true}); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"final": g.game.End(), "versions": t.s.versions()})
}

func (t *tournamentRoutes) getMJAI(c echo.Context) error {
	g, err := t.game(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	t.mu.Lock()
	err = g.game.MJAI(&buf)
	t.mu.Unlock()
	if err != nil {
		return problem(http.StatusUnprocessableEntity, scoring.CodeBadRequest, err.Error())
	}
	// One JSON event a line, as MJAI logs are kept (plain text, so a
	// browser shows it).
	c.Response().Header().Set("Content-Disposition", `inline; filename="`+strings.ReplaceAll(g.game.ID, `"`, "")+`.mjson"`)
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", buf.Bytes())
}

// getStandings adds up the games named in ?games=a,b (all games when
// absent), penalties not included; as CSV with ?format=csv.
func (t *tournamentRoutes) getStandings(c echo.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := t.order
	if q := c.QueryParam("games"); q != "" {
		ids = strings.Split(q, ",")
	}
	var games []*tournament.Game
	for _, id := range ids {
		g, ok := t.games[id]
		if !ok {
			return problem(http.StatusNotFound, codeNotFound, "no game "+quoteID(id))
		}
		games = append(games, g.game)
	}
	rows := tournament.Standings(games, nil)
	if c.QueryParam("format") == "csv" {
		var buf bytes.Buffer
		if err := tournament.WriteCSV(&buf, rows); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
	return c.JSON(http.StatusOK, map[string]any{"standings": rows, "versions": t.s.versions()})
}

// RecordResponse is a stored referee record.
type RecordResponse struct {
	Record   referee.Record `json:"record"`
	Versions Versions       `json:"versions"`
}

func (t *tournamentRoutes) appendRecord(c echo.Context, overturns int64) error {
	var r referee.Record
	if err := bindStrict(c, "the referee record", &r); err != nil {
		return err
	}
	r.Overturns = overturns
	if err := t.placeRecord(c.Request().Context(), &r); err != nil {
		return err
	}
	if r.EngineVersion == "" {
		r.EngineVersion = t.s.deps.Version
	}
	stored, err := t.records.Append(c.Request().Context(), r)
	switch {
	case errors.Is(err, referee.ErrNotFound):
		return problem(http.StatusNotFound, codeNotFound, "the record to overturn does not exist")
	case errors.Is(err, referee.ErrAlreadyOverturned):
		return problem(http.StatusConflict, scoring.CodeBadRequest, err.Error())
	case err != nil:
		return storeProblem(err) // refused input is a 400; the database failing a 500
	}
	return c.JSON(http.StatusCreated, RecordResponse{Record: stored, Versions: t.s.versions()})
}

func (t *tournamentRoutes) postRecord(c echo.Context) error { return t.appendRecord(c, 0) }

func (t *tournamentRoutes) postOverturn(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return problem(http.StatusNotFound, codeNotFound, "no record with this id")
	}
	return t.appendRecord(c, id)
}

func (t *tournamentRoutes) getRecords(c echo.Context) error {
	q := referee.Query{Table: c.QueryParam("table"), Game: c.QueryParam("game")}
	if a := c.QueryParam("after"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return problem(http.StatusBadRequest, scoring.CodeBadRequest, "after is a record id")
		}
		q.After = n
	}
	if who := callerOf(c); who.role == roleTable {
		if (q.Table != "" && q.Table != who.table) || (q.Game != "" && q.Game != who.game) {
			return problem(http.StatusForbidden, codeForbidden, "a table token sees its own game's records only")
		}
		q.Table, q.Game = who.table, who.game
	}
	return t.listRecords(c, q)
}

func (t *tournamentRoutes) getRecord(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return problem(http.StatusNotFound, codeNotFound, "no record with this id")
	}
	chain, err := t.records.InForce(c.Request().Context(), id)
	if errors.Is(err, referee.ErrNotFound) {
		return problem(http.StatusNotFound, codeNotFound, "no record with this id")
	}
	if err != nil {
		return err
	}
	if !callerOf(c).sees(chain[0]) {
		return noRecord() // as for a record that does not exist
	}
	return c.JSON(http.StatusOK, map[string]any{"record": chain[0], "in_force": chain[len(chain)-1], "chain": chain, "versions": t.s.versions()})
}

// tableSetup is a table's camera: where its snapshot comes from, which
// seat the camera stands behind, whether photos are kept, and its
// calibration once made.
type tableSetup struct {
	Table       string                   `json:"table"`
	SnapshotURL string                   `json:"snapshot_url"`
	Near        string                   `json:"near,omitempty"`
	NoPhotos    bool                     `json:"no_photos,omitempty"`
	Calibration *calibration.Calibration `json:"calibration,omitempty"`
}

func (t *tournamentRoutes) loadTables(ctx context.Context) error {
	setups, problems, err := t.records.TableSetups(ctx)
	if err != nil {
		return fmt.Errorf("reading table setups: %w", err)
	}
	for _, p := range problems {
		t.s.log.Printf("%s", p)
	}
	for name, st := range setups {
		var ts tableSetup
		if err := json.Unmarshal(st.Body, &ts); err != nil {
			t.s.log.Printf("table %s: setup unreadable (%v); register it again", name, err)
			continue
		}
		t.tables[name] = &ts
	}
	return nil
}

// saveTable stores a new version of a table's setup and puts it in force.
func (t *tournamentRoutes) saveTable(c echo.Context, ts *tableSetup) error {
	body, err := json.Marshal(ts)
	if err != nil {
		return err
	}
	if _, err := t.records.AppendTableSetup(c.Request().Context(), referee.TableSetup{Table: ts.Table, By: string(callerOf(c).role), Body: body}); err != nil {
		return storeProblem(err)
	}
	t.tables[ts.Table] = ts
	return nil
}

// postTable registers (or re-registers) a table's camera; organiser only,
// since the service will fetch the address it is given.
func (t *tournamentRoutes) postTable(c echo.Context) error {
	var ts tableSetup
	if err := bindStrict(c, "the table (table, snapshot_url)", &ts); err != nil {
		return err
	}
	ts.Calibration = nil
	if err := tournament.CheckID("the table", ts.Table); err != nil {
		return idProblem(err)
	}
	if !(strings.HasPrefix(ts.SnapshotURL, "http://") || strings.HasPrefix(ts.SnapshotURL, "https://")) {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "a table needs a name and an http(s) snapshot_url that answers one JPEG")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.saveTable(c, &ts); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"table": ts, "versions": t.s.versions()})
}

// table finds a registered table the caller may see.
func (t *tournamentRoutes) table(c echo.Context) (*tableSetup, error) {
	name := c.Param("table")
	t.mu.Lock()
	ts, ok := t.tables[name]
	t.mu.Unlock()
	if who := callerOf(c); !ok || (who.role == roleTable && who.table != name) {
		return nil, noTable() // another table's is answered as none
	}
	return ts, nil
}

func (t *tournamentRoutes) getTable(c echo.Context) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"table": ts, "versions": t.s.versions()})
}

// postCalibrate takes a snapshot of the table (empty or set up) and stores
// a new calibration; redoing it adds a new setup version.
func (t *tournamentRoutes) postCalibrate(c echo.Context) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	ctx, leave, err := t.s.admitted(c.Request().Context())
	if err != nil {
		return err
	}
	defer leave()
	// The snapshot waits on the network: it holds a place, not a worker.
	frame, err := calibration.DefaultCamera.Snapshot(ctx, ts.SnapshotURL)
	if err != nil {
		return problem(http.StatusBadGateway, codeRecognition, err.Error())
	}
	var cal *calibration.Calibration
	err = t.s.decodeWork(ctx, photoPixels(frame), func() error {
		var err error
		cal, err = calibration.Calibrate(frame, calibration.GreenFelt, ts.Near)
		if err != nil {
			return problem(http.StatusUnprocessableEntity, codeRecognition, err.Error())
		}
		return nil
	})
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	next := *ts
	next.Calibration = cal
	if err := t.saveTable(c, &next); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"table": next, "versions": t.s.versions()})
}

// scoreNow is the body of a score-now call: the seat to read and what a
// photo cannot show (rules, winds, win tile, self-draw, …).
type scoreNow struct {
	Seat string `json:"seat"`
	// AskedBy is refused: who asked comes from the token.
	AskedBy string          `json:"asked_by,omitempty"`
	Game    string          `json:"game,omitempty"`
	Hand    int             `json:"hand,omitempty"`
	Request scoring.Request `json:"request"`
}

// postScoreNow takes a snapshot, reads the seat's hand and scores it, and
// appends the proposal to the referee record (with the photo unless the
// table opted out). The referee then confirms or overturns it.
func (t *tournamentRoutes) postScoreNow(c echo.Context) error {
	ts, err := t.table(c)
	if err != nil {
		return err
	}
	if ts.Calibration == nil {
		return problem(http.StatusConflict, scoring.CodeBadRequest, "the table is not calibrated yet: the organiser calibrates it first")
	}
	if t.s.deps.Recognizer == nil {
		return problem(http.StatusServiceUnavailable, codeNoRecognition, "photo recognition is not available on this service")
	}
	var in scoreNow
	if err := bindStrict(c, "the seat and the hand's situation", &in); err != nil {
		return err
	}
	place, err := t.placeProposal(callerOf(c), ts.Table, &in)
	if err != nil {
		return err
	}
	stored := false
	defer func() {
		if !stored {
			place.release()
		}
	}()
	if in.Request.Rules == "" {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "request.rules names the rule set to score under")
	}
	ctx, leave, err := t.s.admitted(c.Request().Context())
	if err != nil {
		return err
	}
	defer leave()
	p, err := t.s.app.ScoreNow(ctx, app.Table{SnapshotURL: ts.SnapshotURL, Calibration: ts.Calibration}, in.Seat, in.Request)
	if err != nil {
		return err
	}
	reqJSON, _ := json.Marshal(p.Request)
	resJSON, _ := json.Marshal(p.Result)
	rec := referee.Record{
		Table: ts.Table, Game: place.game, Hand: place.hand, AskedBy: place.askedBy, PhotoSHA256: p.FrameSHA256,
		ModelVersion: t.s.versions().Model, EngineVersion: t.s.deps.Version,
		RuleSet: p.Request.Rules + "/" + p.Result.Preset, Recognized: p.Request.Hand,
		Request: reqJSON, Computed: resJSON, Ruling: "proposed by the camera: awaiting the referee",
	}
	if !ts.NoPhotos {
		rec.Photo = p.Frame
	}
	kept, err := t.records.Append(ctx, rec)
	if err != nil {
		return storeProblem(err)
	}
	stored = true
	kept.Photo = nil // the answer carries the hash; the record keeps the photo
	return c.JSON(http.StatusOK, map[string]any{"proposal": p, "record": kept, "versions": t.s.versions()})
}

// An MSMC tournament lives in a log of its own, named with this prefix:
// its entrants first, then each game added and each score penalty.
const (
	tournamentLogPrefix = "tournament:"
	logTournament       = "tournament"
	logAddGame          = "add_game"
	logPenalty          = "penalty"
)

type tourState struct {
	tour   *tournament.Tournament
	logged int
}

type newTournament struct {
	ID        string   `json:"id"`
	Entrants  []string `json:"entrants"`
	Organizer string   `json:"organizer,omitempty"`
}

type addGame struct {
	Stage tournament.Stage `json:"stage"`
	Table int              `json:"table"`
	Game  string           `json:"game"`
}

// loadTournament replays a tournament's log over the loaded games.
func (t *tournamentRoutes) loadTournament(log []referee.GameEvent) {
	var nt newTournament
	if err := json.Unmarshal(log[0].Body, &nt); err != nil {
		t.s.log.Printf("%s: unreadable start; not loaded", log[0].Game)
		return
	}
	tour, err := tournament.NewMSMC(nt.ID, nt.Entrants, nt.Organizer)
	if err != nil {
		t.s.log.Printf("%s: %v; not loaded", log[0].Game, err)
		return
	}
	for _, e := range log[1:] {
		var err error
		switch e.Kind {
		case logAddGame:
			var a addGame
			if err = json.Unmarshal(e.Body, &a); err == nil {
				if g, ok := t.games[a.Game]; ok {
					err = tour.Add(a.Stage, a.Table, g.game)
				} else {
					err = fmt.Errorf("game %s is not loaded", a.Game)
				}
			}
		case logPenalty:
			var p tournament.Penalty
			if err = json.Unmarshal(e.Body, &p); err == nil {
				err = tour.Penalize(p)
			}
		}
		if err != nil {
			t.s.log.Printf("%s entry %d: %v; skipped", log[0].Game, e.Seq, err)
		}
	}
	t.tours[nt.ID] = &tourState{tour: tour, logged: len(log)}
}

func (t *tournamentRoutes) postTournament(c echo.Context) error {
	var in newTournament
	if err := bindStrict(c, "the tournament (id, entrants in draw order, organizer)", &in); err != nil {
		return err
	}
	if in.ID == "" {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, "a tournament needs an id")
	}
	tour, err := tournament.NewMSMC(in.ID, in.Entrants, in.Organizer)
	if err != nil {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, err.Error())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.tours[in.ID]; dup {
		return problem(http.StatusConflict, scoring.CodeBadRequest, "a tournament with this id exists already")
	}
	st := &tourState{tour: tour}
	if err := t.logEntry(c.Request().Context(), &st.logged, tournamentLogPrefix+in.ID, logTournament, string(callerOf(c).role), in); err != nil {
		if errors.Is(err, referee.ErrSeqTaken) {
			return problem(http.StatusConflict, scoring.CodeBadRequest, "a tournament with this id exists already")
		}
		return err
	}
	t.tours[in.ID] = st
	return c.JSON(http.StatusCreated, t.tourView(tour))
}

func (t *tournamentRoutes) tour(c echo.Context) (*tourState, error) {
	st, ok := t.tours[c.Param("id")]
	if !ok {
		return nil, problem(http.StatusNotFound, codeNotFound, "no tournament with this id")
	}
	return st, nil
}

// tourView is a tournament with what follows from it: who plays next,
// the finalists once known, and the standings.
func (t *tournamentRoutes) tourView(tour *tournament.Tournament) map[string]any {
	next := map[string][]string{}
	for table := 0; table < max(tour.Format.Tables, 1); table++ {
		if p, err := tour.NextPlayers(tournament.Qualifier, table); err == nil {
			next[fmt.Sprintf("qualifier table %d", table)] = p
		}
	}
	if p, err := tour.NextPlayers(tournament.Finals, 0); err == nil {
		next["final"] = p
	}
	view := map[string]any{"tournament": tour, "next": next, "standings": tour.Standings(), "versions": t.s.versions()}
	if f, err := tour.Finalists(); err == nil {
		view["finalists"] = f
	}
	if w, err := tour.Winner(); err == nil {
		view["winner"] = w
	}
	return view
}

// getTournament answers the tournament, or with ?format=csv its standings
// as CSV.
func (t *tournamentRoutes) getTournament(c echo.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "csv" {
		var buf bytes.Buffer
		if err := tournament.WriteCSV(&buf, st.tour.Standings()); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
	}
	return c.JSON(http.StatusOK, t.tourView(st.tour))
}

// postTournamentGame adds a game to the tournament; an unfinished game is
// ended first (the organiser's time limit).
func (t *tournamentRoutes) postTournamentGame(c echo.Context) error {
	var in addGame
	if err := bindStrict(c, "the game to add (stage, table, game)", &in); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	g, ok := t.games[in.Game]
	if !ok {
		return problem(http.StatusNotFound, codeNotFound, "no game "+quoteID(in.Game))
	}
	ctx := c.Request().Context()
	by := string(callerOf(c).role)
	// Check first on a copy, so a refused game is neither ended nor logged.
	trial, err := tournament.Replay(g.game.Sheet(), nil)
	if err == nil {
		copyOf := *st.tour
		copyOf.Games = append([]*tournament.Played(nil), st.tour.Games...)
		err = copyOf.Add(in.Stage, in.Table, trial)
	}
	if err != nil {
		return problem(http.StatusConflict, scoring.CodeBadRequest, err.Error())
	}
	if !g.game.Over {
		if err := t.logEntry(ctx, &g.logged, g.game.ID, logEnd, by, map[string]bool{"ended": true}); err != nil {
			return err
		}
	}
	if err := t.logEntry(ctx, &st.logged, tournamentLogPrefix+st.tour.Name, logAddGame, by, in); err != nil {
		return err
	}
	if err := st.tour.Add(in.Stage, in.Table, g.game); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t.tourView(st.tour))
}

// postPenalty takes points off a player's final score (seed 000).
func (t *tournamentRoutes) postPenalty(c echo.Context) error {
	var p tournament.Penalty
	if err := bindStrict(c, "the penalty (player, points, reason)", &p); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st, err := t.tour(c)
	if err != nil {
		return err
	}
	// Fix the stage now, so replaying the log later gives the same one.
	trial := *st.tour
	trial.Penalties = append([]tournament.Penalty(nil), st.tour.Penalties...)
	if err := trial.Penalize(p); err != nil {
		return problem(http.StatusBadRequest, scoring.CodeBadRequest, err.Error())
	}
	p = trial.Penalties[len(trial.Penalties)-1]
	if err := t.logEntry(c.Request().Context(), &st.logged, tournamentLogPrefix+st.tour.Name, logPenalty, string(callerOf(c).role), p); err != nil {
		return err
	}
	st.tour.Penalties = trial.Penalties
	return c.JSON(http.StatusCreated, t.tourView(st.tour))
}
