package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Record is one scoring decision.
type Record struct {
	// ID is given by the store when the record is appended.
	ID int64 `json:"id"`
	// IdempotencyKey, when set, is the digest of the request's scoped
	// Idempotency-Key: a second Append under it gives the first record
	// back instead of a second one. Not shown, not in the digest.
	IdempotencyKey string `json:"-"`
	// At is when the record was appended (UTC, set by the store).
	At time.Time `json:"at"`
	// Table and Game place the decision in the tournament; Hand is the
	// hand's number in the game (0 when not tied to a game hand).
	Table string `json:"table"`
	Game  string `json:"game,omitempty"`
	Hand  int    `json:"hand,omitempty"`
	// AskedBy is who asked for the decision (a player, a referee).
	AskedBy string `json:"asked_by"`
	// PhotoSHA256 is the hex SHA-256 of the photo; Photo the bytes, absent
	// when the table opted out of keeping photos. Photo is only given when
	// a record is appended: reading a record leaves it out (Store.Photo
	// reads it on its own) and says in PhotoSize how many bytes are kept.
	PhotoSHA256 string `json:"photo_sha256,omitempty"`
	Photo       []byte `json:"photo,omitempty"`
	PhotoSize   int64  `json:"photo_size,omitempty"`
	// Versions of what produced the decision.
	ModelVersion  string `json:"model_version,omitempty"`
	EngineVersion string `json:"engine_version"`
	RuleSet       string `json:"rule_set"`
	// Recognized are the tiles the recogniser read (CONTRACT codes).
	Recognized string `json:"recognized,omitempty"`
	// Corrections are the manual changes made to the recognised hand, in
	// order.
	Corrections []Correction `json:"corrections,omitempty"`
	// Request is the hand request that was scored (CONTRACT JSON).
	Request json.RawMessage `json:"request,omitempty"`
	// Claimed is the score the player claimed, as said at the table.
	Claimed string `json:"claimed,omitempty"`
	// Computed is the engine's result with its breakdown (CONTRACT JSON).
	Computed json.RawMessage `json:"computed,omitempty"`
	// Ruling is the referee's decision, and Referee who made it.
	Ruling  string `json:"ruling"`
	Referee string `json:"referee,omitempty"`
	// Overturns is the ID of the record whose ruling this one replaces.
	Overturns int64 `json:"overturns,omitempty"`
	// Digest is the hex SHA-256 of the record's content: everything but
	// its ID and the photo's bytes, which the photo's hash stands for (so a
	// record is checked without reading its photo, and the photo is checked
	// against its hash whenever it is read). Reading a record checks it,
	// so a record altered behind the store's back is noticed.
	Digest string `json:"digest"`
	// LegacyDigest is the digest a record stored before version 5 of the
	// schema was first given (it covered the photo's bytes, not its time):
	// the upgrade checked it and sealed the record anew, and keeps it so a
	// digest noted then still matches.
	LegacyDigest string `json:"legacy_digest,omitempty"`
	// Tampered, set when a record is read, says why it cannot be trusted:
	// it no longer matches its digest, or the database cannot give it back
	// whole. Empty for an intact record.
	Tampered string `json:"tampered,omitempty"`
}

// Correction is one manual change to the recognised tiles.
type Correction struct {
	By     string `json:"by"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason,omitempty"`
}

// digestScheme numbers what a record's digest covers: 1 (before schema
// step 5) the content with the photo's bytes and without the time; 2 the
// content with the time and the photo's hash only.
const digestScheme = 2

// sealed is what a record's digest covers (scheme 2), in a fixed order.
type sealed struct {
	Scheme        int             `json:"scheme"`
	AtUS          int64           `json:"at_us"`
	Table         string          `json:"table"`
	Game          string          `json:"game"`
	Hand          int             `json:"hand"`
	AskedBy       string          `json:"asked_by"`
	PhotoSHA256   string          `json:"photo_sha256"`
	ModelVersion  string          `json:"model_version"`
	EngineVersion string          `json:"engine_version"`
	RuleSet       string          `json:"rule_set"`
	Recognized    string          `json:"recognized"`
	Corrections   []Correction    `json:"corrections"`
	Request       json.RawMessage `json:"request,omitempty"`
	Claimed       string          `json:"claimed"`
	Computed      json.RawMessage `json:"computed,omitempty"`
	Ruling        string          `json:"ruling"`
	Referee       string          `json:"referee"`
	Overturns     int64           `json:"overturns"`
}

// ComputeDigest is the digest of the record's content (scheme 2).
func (r *Record) ComputeDigest() string {
	corrections := r.Corrections
	if len(corrections) == 0 {
		corrections = nil // stored as [] and read back as none
	}
	b, _ := json.Marshal(sealed{
		Scheme: digestScheme, AtUS: r.At.UnixMicro(), Table: r.Table, Game: r.Game, Hand: r.Hand, AskedBy: r.AskedBy,
		PhotoSHA256: r.PhotoSHA256, ModelVersion: r.ModelVersion, EngineVersion: r.EngineVersion, RuleSet: r.RuleSet,
		Recognized: r.Recognized, Corrections: corrections, Request: r.Request, Claimed: r.Claimed,
		Computed: r.Computed, Ruling: r.Ruling, Referee: r.Referee, Overturns: r.Overturns,
	})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// legacyRecord is the record as digest scheme 1 saw it: the Record type
// of that version, field for field, with ID, At and Digest zero.
type legacyRecord struct {
	ID            int64           `json:"id"`
	At            time.Time       `json:"at"`
	Table         string          `json:"table"`
	Game          string          `json:"game,omitempty"`
	Hand          int             `json:"hand,omitempty"`
	AskedBy       string          `json:"asked_by"`
	PhotoSHA256   string          `json:"photo_sha256,omitempty"`
	Photo         []byte          `json:"photo,omitempty"`
	ModelVersion  string          `json:"model_version,omitempty"`
	EngineVersion string          `json:"engine_version"`
	RuleSet       string          `json:"rule_set"`
	Recognized    string          `json:"recognized,omitempty"`
	Corrections   []Correction    `json:"corrections,omitempty"`
	Request       json.RawMessage `json:"request,omitempty"`
	Claimed       string          `json:"claimed,omitempty"`
	Computed      json.RawMessage `json:"computed,omitempty"`
	Ruling        string          `json:"ruling"`
	Referee       string          `json:"referee,omitempty"`
	Overturns     int64           `json:"overturns,omitempty"`
	Digest        string          `json:"digest"`
}

// legacyDigest is the scheme 1 digest of r with its photo's bytes.
func (r *Record) legacyDigest(photo []byte) string {
	b, _ := json.Marshal(legacyRecord{
		Table: r.Table, Game: r.Game, Hand: r.Hand, AskedBy: r.AskedBy, PhotoSHA256: r.PhotoSHA256, Photo: photo,
		ModelVersion: r.ModelVersion, EngineVersion: r.EngineVersion, RuleSet: r.RuleSet, Recognized: r.Recognized,
		Corrections: r.Corrections, Request: r.Request, Claimed: r.Claimed, Computed: r.Computed, Ruling: r.Ruling,
		Referee: r.Referee, Overturns: r.Overturns,
	})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ErrCorrupt marks a stored record whose content no longer matches its
// digest.
var ErrCorrupt = errors.New("referee record does not match its digest")

// Verify checks the stored digest.
func (r *Record) Verify() error {
	if r.Digest != r.ComputeDigest() {
		return fmt.Errorf("record %d: %w", r.ID, ErrCorrupt)
	}
	return nil
}

// What a reader is told about a record it cannot trust.
const (
	tamperedRecord = "this record was changed after it was stored (it no longer matches its digest): do not rely on it, and tell the head referee"
	damagedRecord  = "this record cannot be read back whole (the database holds a damaged copy): do not rely on it, and tell the head referee"
	unsealedRecord = "this record did not match its digest when the record was upgraded (it had been changed after it was stored): do not rely on it, and tell the head referee"
)

// PhotoHash is the hex SHA-256 of a photo.
func PhotoHash(photo []byte) string {
	sum := sha256.Sum256(photo)
	return hex.EncodeToString(sum[:])
}

// validate refuses records that would not explain a decision, and text
// either store could not keep as it is.
func (r *Record) validate() error {
	var missing []string
	for name, v := range map[string]string{
		"table": r.Table, "asked_by": r.AskedBy, "engine_version": r.EngineVersion,
		"rule_set": r.RuleSet, "ruling": r.Ruling,
	} {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return invalid("a referee record needs %s", strings.Join(sortStrings(missing), ", "))
	}
	for _, f := range []struct{ name, v string }{
		{"table", r.Table}, {"game", r.Game}, {"asked_by", r.AskedBy}, {"photo_sha256", r.PhotoSHA256},
		{"model_version", r.ModelVersion}, {"engine_version", r.EngineVersion}, {"rule_set", r.RuleSet},
		{"recognized", r.Recognized}, {"referee", r.Referee},
	} {
		if err := checkName(f.name, f.v); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, v string }{{"claimed", r.Claimed}, {"ruling", r.Ruling}} {
		if err := checkText(f.name, f.v); err != nil {
			return err
		}
	}
	if len(r.Corrections) > MaxCorrections {
		return invalid("corrections lists %d changes: at most %d are kept", len(r.Corrections), MaxCorrections)
	}
	for i, c := range r.Corrections {
		for _, f := range []struct{ name, v string }{{"by", c.By}, {"from", c.From}, {"to", c.To}} {
			if err := checkName(fmt.Sprintf("corrections[%d].%s", i, f.name), f.v); err != nil {
				return err
			}
		}
		if err := checkText(fmt.Sprintf("corrections[%d].reason", i), c.Reason); err != nil {
			return err
		}
	}
	if r.Photo != nil && r.PhotoSHA256 != "" && PhotoHash(r.Photo) != r.PhotoSHA256 {
		return invalid("the photo does not match its hash")
	}
	if r.Photo != nil && r.PhotoSHA256 == "" {
		r.PhotoSHA256 = PhotoHash(r.Photo)
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"request", r.Request}, {"computed", r.Computed}} {
		if len(f.raw) == 0 {
			continue
		}
		if !json.Valid(f.raw) {
			return invalid("request and computed must be JSON")
		}
		if err := checkJSON(f.name, f.raw); err != nil {
			return err
		}
	}
	if r.Overturns < 0 {
		return invalid("overturns names a record id")
	}
	return nil
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}
