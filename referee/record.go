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
	// when the table opted out of keeping photos.
	PhotoSHA256 string `json:"photo_sha256,omitempty"`
	Photo       []byte `json:"photo,omitempty"`
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
	// Digest is the hex SHA-256 of the record's content (everything but
	// ID, At and Digest): reading a record checks it, so a record altered
	// behind the store's back is noticed.
	Digest string `json:"digest"`
}

// Correction is one manual change to the recognised tiles.
type Correction struct {
	By     string `json:"by"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason,omitempty"`
}

// content is what the digest covers, in a fixed field order.
func (r *Record) content() []byte {
	c := *r
	c.ID, c.At, c.Digest = 0, time.Time{}, ""
	b, _ := json.Marshal(c)
	return b
}

// ComputeDigest is the digest of the record's content.
func (r *Record) ComputeDigest() string {
	sum := sha256.Sum256(r.content())
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

// PhotoHash is the hex SHA-256 of a photo.
func PhotoHash(photo []byte) string {
	sum := sha256.Sum256(photo)
	return hex.EncodeToString(sum[:])
}

// validate refuses records that would not explain a decision.
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
		return fmt.Errorf("a referee record needs %s", strings.Join(sortStrings(missing), ", "))
	}
	if r.Photo != nil && r.PhotoSHA256 != "" && PhotoHash(r.Photo) != r.PhotoSHA256 {
		return errors.New("the photo does not match its hash")
	}
	if r.Photo != nil && r.PhotoSHA256 == "" {
		r.PhotoSHA256 = PhotoHash(r.Photo)
	}
	for _, raw := range []json.RawMessage{r.Request, r.Computed} {
		if len(raw) > 0 && !json.Valid(raw) {
			return errors.New("request and computed must be JSON")
		}
	}
	if r.Overturns < 0 {
		return errors.New("overturns names a record id")
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
