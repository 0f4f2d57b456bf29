package referee

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TileSet is one version of a player's own tile set: what the service
// learned of the set (the bank, bytes the recogniser wrote) and a summary
// that is read without them. A set grows by a new version, numbered from 1
// without gaps; the newest is in force and the old ones stay. Each
// version's digest covers the version before it, as a game log's entries
// do, and the bank's hash, so a version changed behind the store's back is
// noticed when it is read.
type TileSet struct {
	ID      string    `json:"id"`
	Version int       `json:"version"`
	At      time.Time `json:"at"`
	Name    string    `json:"name"`
	// Codes are the tile codes the set was taught, Tiles how many tiles
	// it keeps and Photos how many photos it learned from.
	Codes  []string `json:"codes"`
	Tiles  int      `json:"tiles"`
	Photos int      `json:"photos"`
	// Blurred are the codes among Codes that the set learned only from
	// blurred tiles (vision.Bank.Blurred): a sharper photo of them would
	// teach them better. Known says the models that taught it already
	// read the set, and read its photos as they do (vision.Bank.Known).
	Blurred []string `json:"blurred,omitempty"`
	Known   bool     `json:"known,omitempty"`
	// EngineVersion and ModelVersion say what taught this version: the
	// bank is only good with the models that taught it.
	EngineVersion string `json:"engine_version,omitempty"`
	ModelVersion  string `json:"model_version,omitempty"`
	BankSHA256    string `json:"bank_sha256"`
	BankSize      int64  `json:"bank_size"`
	Digest        string `json:"digest"`
	// Created is when version 1 was stored; it is filled in on reading.
	Created time.Time `json:"created"`
	// Tampered, set when a set is read, says why its version in force
	// cannot be trusted. Empty for an intact set.
	Tampered string `json:"tampered,omitempty"`
}

// Bounds of a tile set.
const (
	// MaxTileSetVersions is how many versions one set keeps: each keeps a
	// whole bank, so a set cannot grow without end.
	MaxTileSetVersions = 100
	// MaxTileSetBank bounds one version's bank.
	MaxTileSetBank = 64 << 20
	// maxTileSetCodes bounds the codes of a summary (a set has 63 kinds
	// of tile at most; room is left for more).
	maxTileSetCodes = 128
)

// ErrNoTileSet is returned for a tile set that is not stored.
var ErrNoTileSet = errors.New("no such tile set")

// ErrVersionTaken is returned when another writer stored the same version
// of a set first: read the set again and grow it from there.
var ErrVersionTaken = errors.New("another version of this tile set was stored first")

// ErrTooManyVersions is returned when a set already has
// MaxTileSetVersions versions.
var ErrTooManyVersions = fmt.Errorf("a tile set keeps at most %d versions", MaxTileSetVersions)

func (t *TileSet) digest(prev string) string {
	return chainDigest(prev, "tile set", t.ID, strconv.Itoa(t.Version), strconv.FormatInt(t.At.UnixMicro(), 10), t.Name,
		strings.Join(t.Codes, " "), strconv.Itoa(t.Tiles), strconv.Itoa(t.Photos), t.EngineVersion, t.ModelVersion,
		t.BankSHA256, strconv.FormatInt(t.BankSize, 10))
}

// notesDigest is the digest of what teaching noted of a version (its
// blurred codes, whether it is known), chained to the version's own: kept
// beside them (tile_set_notes) rather than in the version's digest, so
// that a replica that does not know them still finds the version intact.
func (t *TileSet) notesDigest() string {
	return chainDigest(t.Digest, "notes", strings.Join(t.Blurred, " "), strconv.FormatBool(t.Known))
}

// AppendTileSet stores version t.Version of a set with its bank: version 1
// starts a set, and every later one must follow the version before it.
// It returns the version as stored (time, bank hash and size, digest).
func (s *Store) AppendTileSet(ctx context.Context, t TileSet, bank []byte) (_ TileSet, err error) {
	defer s.observe(&err)
	switch {
	case t.ID == "" || t.Version < 1:
		return TileSet{}, invalid("a tile set needs an id and a version from 1")
	case t.Version > MaxTileSetVersions:
		return TileSet{}, fmt.Errorf("tile set %s: %w", t.ID, ErrTooManyVersions)
	case len(bank) == 0 || len(bank) > MaxTileSetBank:
		return TileSet{}, invalid("a tile set's bank must hold 1 byte to %d MB", MaxTileSetBank>>20)
	case len(t.Codes) > maxTileSetCodes || len(t.Blurred) > maxTileSetCodes || t.Tiles < 0 || t.Photos < 0:
		return TileSet{}, invalid("a tile set's summary holds at most %d codes and no negative counts", maxTileSetCodes)
	}
	for _, f := range []struct{ name, v string }{{"the tile set's id", t.ID}, {"the tile set's name", t.Name},
		{"the engine version", t.EngineVersion}, {"the model version", t.ModelVersion}} {
		if err := checkName(f.name, f.v); err != nil {
			return TileSet{}, err
		}
	}
	for _, c := range t.Codes {
		if c == "" || strings.ContainsAny(c, " ") {
			return TileSet{}, invalid("a tile set's codes are single words")
		}
		if err := checkName("a tile code", c); err != nil {
			return TileSet{}, err
		}
	}
	taught := map[string]bool{}
	for _, c := range t.Codes {
		taught[c] = true
	}
	for _, c := range t.Blurred {
		if !taught[c] {
			return TileSet{}, invalid("a tile set's blurred codes are among its codes (%q is not)", c)
		}
	}
	sum := sha256.Sum256(bank)
	t.BankSHA256, t.BankSize, t.Tampered = hex.EncodeToString(sum[:]), int64(len(bank)), ""
	t.Created = time.Time{}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return TileSet{}, err
	}
	defer tx.Rollback()
	var prev string
	var created int64
	if t.Version > 1 {
		err := tx.QueryRowContext(ctx, rebind(s.d, `SELECT digest FROM tile_sets WHERE set_id = ? AND version = ?`), t.ID, t.Version-1).Scan(&prev)
		if errors.Is(err, sql.ErrNoRows) {
			return TileSet{}, fmt.Errorf("tile set %s has no version %d to follow: %w", t.ID, t.Version-1, ErrNoTileSet)
		}
		if err == nil {
			err = tx.QueryRowContext(ctx, rebind(s.d, `SELECT at_us FROM tile_sets WHERE set_id = ? AND version = 1`), t.ID).Scan(&created)
		}
		if err != nil {
			return TileSet{}, err
		}
	}
	t.At = time.Now().UTC().Truncate(time.Microsecond)
	// The answer says when the set was made, as reading it back does.
	t.Created = t.At
	if t.Version > 1 {
		t.Created = time.UnixMicro(created).UTC()
	}
	t.Digest = t.digest(prev)
	_, err = tx.ExecContext(ctx, rebind(s.d, `INSERT INTO tile_sets (set_id, version, at_us, name, codes, tiles, photos,
		engine_version, model_version, bank_sha256, bank_size, digest, bank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		t.ID, t.Version, t.At.UnixMicro(), t.Name, strings.Join(t.Codes, " "), t.Tiles, t.Photos, t.EngineVersion,
		t.ModelVersion, t.BankSHA256, t.BankSize, t.Digest, bank)
	if err == nil && (len(t.Blurred) > 0 || t.Known) {
		known := 0
		if t.Known {
			known = 1
		}
		_, err = tx.ExecContext(ctx, rebind(s.d, `INSERT INTO tile_set_notes (set_id, version, blurred, known, digest) VALUES (?, ?, ?, ?, ?)`),
			t.ID, t.Version, strings.Join(t.Blurred, " "), known, t.notesDigest())
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		if isUnique(err) {
			return TileSet{}, fmt.Errorf("tile set %s version %d: %w", t.ID, t.Version, ErrVersionTaken)
		}
		return TileSet{}, fmt.Errorf("tile set not stored: %w", s.explainWrite(err))
	}
	return t, nil
}

// tileSetColumns are what reading a set's summary selects, from
// tileSetRows: everything but the bank, and what teaching noted.
const (
	tileSetColumns = `t.set_id, t.version, t.at_us, t.name, t.codes, t.tiles, t.photos, t.engine_version, t.model_version,
		t.bank_sha256, t.bank_size, t.digest, COALESCE(n.blurred, ''), COALESCE(n.known, 0), COALESCE(n.digest, '')`
	tileSetRows = `tile_sets t LEFT JOIN tile_set_notes n ON n.set_id = t.set_id AND n.version = t.version`
)

// TileSet reads the version in force (the newest) of a set and checks it:
// one that no longer matches its digest comes back marked Tampered, with
// an error that wraps ErrTampered. An unknown set wraps ErrNoTileSet.
func (s *Store) TileSet(ctx context.Context, id string) (_ TileSet, err error) {
	defer s.observe(&err)
	if err := checkName("the tile set's id", id); err != nil {
		return TileSet{}, err
	}
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+tileSetColumns+` FROM `+tileSetRows+` WHERE t.set_id = ? ORDER BY t.version`), id)
	if err != nil {
		return TileSet{}, err
	}
	sets, err := scanTileSets(rows)
	if err != nil {
		return TileSet{}, err
	}
	if len(sets) == 0 {
		return TileSet{}, fmt.Errorf("tile set %s: %w", id, ErrNoTileSet)
	}
	t := sets[0]
	if t.Tampered != "" {
		return t, &tamperedError{msg: t.Tampered}
	}
	return t, nil
}

// TileSetBank reads the bank of one version read by TileSet (or
// TileSets) and checks it against the hash the version holds.
func (s *Store) TileSetBank(ctx context.Context, t TileSet) (_ []byte, err error) {
	defer s.observe(&err)
	var bank []byte
	err = s.db.QueryRowContext(ctx, rebind(s.d, `SELECT bank FROM tile_sets WHERE set_id = ? AND version = ?`), t.ID, t.Version).Scan(&bank)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("tile set %s version %d: %w", t.ID, t.Version, ErrNoTileSet)
	}
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(bank); hex.EncodeToString(sum[:]) != t.BankSHA256 || int64(len(bank)) != t.BankSize {
		return nil, &tamperedError{msg: fmt.Sprintf("tile set %s: what version %d learned was changed after it was written (it no longer matches its hash)", t.ID, t.Version)}
	}
	return bank, nil
}

// TileSets reads one page of sets, the version in force of each, in the
// order of their ids; more says whether sets follow the page (ask again
// with after set to the last ID). A set whose version in force fails its
// check comes back marked Tampered.
func (s *Store) TileSets(ctx context.Context, after string, limit int) (page []TileSet, more bool, err error) {
	defer s.observe(&err)
	if err := checkName("the tile set's id", after); err != nil {
		return nil, false, err
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	rows, err := s.db.QueryContext(ctx, rebind(s.d, `SELECT `+tileSetColumns+` FROM `+tileSetRows+` WHERE t.set_id IN
		(SELECT DISTINCT set_id FROM tile_sets WHERE set_id > ? ORDER BY set_id LIMIT ?) ORDER BY t.set_id, t.version`), after, limit+1)
	if err != nil {
		return nil, false, err
	}
	page, err = scanTileSets(rows)
	if err != nil {
		return nil, false, err
	}
	if len(page) > limit {
		return page[:limit], true, nil
	}
	return page, false, nil
}

// scanTileSets reads versions ordered by set and version and gives the
// newest of each set, checked against the digest of the version before
// it as stored (so one changed version fails alone).
func scanTileSets(rows *sql.Rows) ([]TileSet, error) {
	defer rows.Close()
	var out []TileSet
	var prev TileSet
	for rows.Next() {
		var t TileSet
		var at int64
		var codes, blurred, notesDigest string
		var known int
		if err := rows.Scan(&t.ID, &t.Version, &at, &t.Name, &codes, &t.Tiles, &t.Photos, &t.EngineVersion,
			&t.ModelVersion, &t.BankSHA256, &t.BankSize, &t.Digest, &blurred, &known, &notesDigest); err != nil {
			return nil, fmt.Errorf("a tile set cannot be read back: %w", err)
		}
		t.At, t.Codes, t.Blurred, t.Known = time.UnixMicro(at).UTC(), strings.Fields(codes), strings.Fields(blurred), known != 0
		first := len(out) == 0 || out[len(out)-1].ID != t.ID
		if first {
			prev = TileSet{}
			t.Created = t.At
		} else {
			t.Created = out[len(out)-1].Created
		}
		switch {
		case t.Version != prev.Version+1:
			t.Tampered = fmt.Sprintf("tile set %s: version %d follows version %d (a version was removed or renumbered)", t.ID, t.Version, prev.Version)
		case t.Digest != t.digest(prev.Digest):
			t.Tampered = fmt.Sprintf("tile set %s: its version %d was changed after it was written (it no longer matches its digest)", t.ID, t.Version)
		case notesDigest != "" && notesDigest != t.notesDigest():
			t.Tampered = fmt.Sprintf("tile set %s: what teaching noted of its version %d was changed after it was written (it no longer matches its digest)", t.ID, t.Version)
		}
		prev = t
		if first {
			out = append(out, t)
		} else {
			out[len(out)-1] = t
		}
	}
	return out, rows.Err()
}
