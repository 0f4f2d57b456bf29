package referee

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func sampleSet(id string, version int) TileSet {
	return TileSet{ID: id, Version: version, Name: "green backs", Codes: []string{"1m", "2m", "5z"}, Tiles: 3 * version, Photos: version,
		EngineVersion: "test", ModelVersion: "tile_detector@x+tile_classifier@y"}
}

// TestTileSetVersions: versions are stored in order, the newest is read
// with its summary and its bank, a version that does not follow the one
// before it or was taken by another writer is refused, and the set is
// there after the store is opened again.
func TestTileSetVersions(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			if _, err := s.TileSet(ctx, "ts_none"); !errors.Is(err, ErrNoTileSet) {
				t.Fatalf("unknown set: %v", err)
			}
			v1, err := s.AppendTileSet(ctx, sampleSet("ts_a", 1), []byte("bank one"))
			if err != nil {
				t.Fatal(err)
			}
			if v1.Digest == "" || v1.BankSize != 8 || v1.BankSHA256 == "" || !v1.Created.Equal(v1.At) {
				t.Fatalf("stored as %+v", v1)
			}
			if _, err := s.AppendTileSet(ctx, sampleSet("ts_a", 1), []byte("again")); !errors.Is(err, ErrVersionTaken) {
				t.Fatalf("version 1 twice: %v", err)
			}
			if _, err := s.AppendTileSet(ctx, sampleSet("ts_a", 3), []byte("gap")); !errors.Is(err, ErrNoTileSet) {
				t.Fatalf("version 3 after 1: %v", err)
			}
			// What a new version answers says when the set was made, as
			// reading it back does.
			if v2, err := s.AppendTileSet(ctx, sampleSet("ts_a", 2), []byte("bank two")); err != nil || !v2.Created.Equal(v1.At) {
				t.Fatalf("version 2 stored as %+v, %v: created should be version 1's %v", v2, err, v1.At)
			}
			if _, err := s.AppendTileSet(ctx, sampleSet("ts_b", 1), []byte("other")); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = open(t, c)
			got, err := s.TileSet(ctx, "ts_a")
			if err != nil || got.Version != 2 || got.Tiles != 6 || strings.Join(got.Codes, " ") != "1m 2m 5z" || got.Name != "green backs" ||
				!got.Created.Equal(v1.At) || got.At.Before(v1.At) {
				t.Fatalf("read back %+v, %v", got, err)
			}
			bank, err := s.TileSetBank(ctx, got)
			if err != nil || string(bank) != "bank two" {
				t.Fatalf("bank %q, %v", bank, err)
			}
			page, more, err := s.TileSets(ctx, "", 1)
			if err != nil || !more || len(page) != 1 || page[0].ID != "ts_a" || page[0].Version != 2 {
				t.Fatalf("first page %+v more %v, %v", page, more, err)
			}
			page, more, err = s.TileSets(ctx, page[0].ID, 10)
			if err != nil || more || len(page) != 1 || page[0].ID != "ts_b" {
				t.Fatalf("second page %+v more %v, %v", page, more, err)
			}
		})
	}
}

// TestTileSetBounds: what a set refuses to store.
func TestTileSetBounds(t *testing.T) {
	ctx := context.Background()
	s := open(t, backends(t)[0].config(t))
	cases := []struct {
		name string
		set  TileSet
		bank []byte
		want error
	}{
		{"no id", sampleSet("", 1), []byte("x"), ErrInvalid},
		{"version 0", sampleSet("ts_a", 0), []byte("x"), ErrInvalid},
		{"too many versions", sampleSet("ts_a", MaxTileSetVersions+1), []byte("x"), ErrTooManyVersions},
		{"no bank", sampleSet("ts_a", 1), nil, ErrInvalid},
		{"control character", func() TileSet { t := sampleSet("ts_a", 1); t.Name = "a\x00b"; return t }(), []byte("x"), ErrInvalid},
		{"a code with a space", func() TileSet { t := sampleSet("ts_a", 1); t.Codes = []string{"1m 2m"}; return t }(), []byte("x"), ErrInvalid},
	}
	for _, c := range cases {
		if _, err := s.AppendTileSet(ctx, c.set, c.bank); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestTileSetTampered: a version changed behind the store's back, or its
// bank, is noticed when it is read; a later version that follows the
// stored digest is good again.
func TestTileSetTampered(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			for v := 1; v <= 2; v++ {
				if _, err := s.AppendTileSet(ctx, sampleSet("ts_a", v), []byte(fmt.Sprint("bank ", v))); err != nil {
					t.Fatal(err)
				}
			}
			unguard(t, s, "tile_sets")
			mustExec(t, s, `UPDATE tile_sets SET tiles = 99 WHERE version = 2`)
			got, err := s.TileSet(ctx, "ts_a")
			if !errors.Is(err, ErrTampered) || !strings.Contains(got.Tampered, "version 2") {
				t.Fatalf("changed summary: %+v, %v", got, err)
			}
			page, _, err := s.TileSets(ctx, "", 10)
			if err != nil || len(page) != 1 || page[0].Tampered == "" {
				t.Fatalf("listing: %+v, %v", page, err)
			}
			mustExec(t, s, `UPDATE tile_sets SET tiles = 6 WHERE version = 2`)
			got, err = s.TileSet(ctx, "ts_a")
			if err != nil {
				t.Fatalf("put back: %v", err)
			}
			mustExec(t, s, `UPDATE tile_sets SET bank = ? WHERE version = 2`, []byte("bank 9"))
			if _, err := s.TileSetBank(ctx, got); !errors.Is(err, ErrTampered) {
				t.Fatalf("changed bank: %v", err)
			}
			if bank, err := s.TileSetBank(ctx, TileSet{ID: "ts_a", Version: 1, BankSHA256: got.BankSHA256}); err == nil || bytes.Equal(bank, []byte("bank 1")) {
				t.Fatalf("a bank checked against another version's hash passed: %v", err)
			}
		})
	}
}

// TestTileSetNotes: what teaching noted of a version (the codes it
// learned only from blurred tiles, whether the models already read the
// set) is kept with it and read back, in a listing too; a version without
// any reads none; blurred codes must be among the set's codes; and the
// notes' own digest, chained to the version's, notices them changed,
// while the version's digest does not cover them (a replica that does not
// know them finds the version intact).
func TestTileSetNotes(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			v1, err := s.AppendTileSet(ctx, sampleSet("ts_a", 1), []byte("bank 1"))
			if err != nil {
				t.Fatal(err)
			}
			v2 := sampleSet("ts_a", 2)
			v2.Blurred = []string{"2m", "5z"}
			if stored, err := s.AppendTileSet(ctx, v2, []byte("bank 2")); err != nil || strings.Join(stored.Blurred, " ") != "2m 5z" {
				t.Fatalf("stored %+v, %v", stored, err)
			}
			known := sampleSet("ts_b", 1)
			known.Known = true
			if _, err := s.AppendTileSet(ctx, known, []byte("bank b")); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s = open(t, c)
			got, err := s.TileSet(ctx, "ts_a")
			if err != nil || got.Version != 2 || strings.Join(got.Blurred, " ") != "2m 5z" || got.Known {
				t.Fatalf("read back %+v, %v", got, err)
			}
			page, _, err := s.TileSets(ctx, "", 10)
			if err != nil || len(page) != 2 || strings.Join(page[0].Blurred, " ") != "2m 5z" || len(page[1].Blurred) != 0 || !page[1].Known {
				t.Fatalf("listing %+v, %v", page, err)
			}
			unguard(t, s, "tile_set_notes")
			mustExec(t, s, `UPDATE tile_set_notes SET known = 0 WHERE set_id = 'ts_b'`)
			if got, err := s.TileSet(ctx, "ts_b"); !errors.Is(err, ErrTampered) {
				t.Fatalf("a known set made unknown behind the store's back: %+v, %v", got, err)
			}

			bad := sampleSet("ts_a", 3)
			bad.Blurred = []string{"9p"}
			if _, err := s.AppendTileSet(ctx, bad, []byte("bank 3")); !errors.Is(err, ErrInvalid) {
				t.Fatalf("a blurred code the set was not taught: %v", err)
			}

			mustExec(t, s, `UPDATE tile_set_notes SET blurred = '5z' WHERE set_id = 'ts_a'`)
			if got, err := s.TileSet(ctx, "ts_a"); !errors.Is(err, ErrTampered) || !strings.Contains(got.Tampered, "noted of its version 2") {
				t.Fatalf("changed blurred codes: %+v, %v", got, err)
			}
			// The version itself stands without them: a replica that
			// does not know blurred codes reads only tile_sets.
			mustExec(t, s, `UPDATE tile_set_notes SET blurred = '2m 5z' WHERE set_id = 'ts_a'`)
			var digest string
			if err := s.db.QueryRow(`SELECT digest FROM tile_sets WHERE set_id = 'ts_a' AND version = 2`).Scan(&digest); err != nil {
				t.Fatal(err)
			}
			if got, err := s.TileSet(ctx, "ts_a"); err != nil || digest != got.digest(v1.Digest) {
				t.Fatalf("put back: %+v, %v; the version's digest should not cover its blurred codes", got, err)
			}
		})
	}
}

// TestTileSetStoredBeforeBlurred: a record whose schema stops before
// step 9 (which keeps what teaching noted) holds a set; opened by this version,
// it gains the step, the set reads back intact, and it grows by a version
// with blurred codes.
func TestTileSetStoredBeforeBlurred(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			if _, err := s.AppendTileSet(ctx, sampleSet("ts_a", 1), []byte("bank 1")); err != nil {
				t.Fatal(err)
			}
			// As the record was before step 9.
			mustExec(t, s, `DROP TABLE tile_set_notes`)
			mustExec(t, s, `DELETE FROM referee_schema WHERE version = 9`)
			s.Close()
			s = open(t, c)
			got, err := s.TileSet(ctx, "ts_a")
			if err != nil || got.Version != 1 || len(got.Blurred) != 0 {
				t.Fatalf("a set stored before step 9: %+v, %v", got, err)
			}
			v2 := sampleSet("ts_a", 2)
			v2.Blurred = []string{"1m"}
			if _, err := s.AppendTileSet(ctx, v2, []byte("bank 2")); err != nil {
				t.Fatal(err)
			}
			if got, err := s.TileSet(ctx, "ts_a"); err != nil || got.Version != 2 || fmt.Sprint(got.Blurred) != "[1m]" {
				t.Fatalf("grown after the upgrade: %+v, %v", got, err)
			}
		})
	}
}
