package referee

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestIdempotencyKeysExpire: a key is claimed once (a second claim sees
// the claim, then the answer), its answer lasts its TTL, an expired key
// is taken anew, and PurgeKeys drops every expired row; a claim whose
// replica died lapses after its lease.
func TestIdempotencyKeysExpire(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c := b.config(t)
			one, two := open(t, c), open(t, c) // two replicas
			ctx := context.Background()
			now := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
			bounds := KeyBounds{TTL: time.Minute, Entries: 100, Bytes: 1 << 20}

			if ok, _, err := one.ClaimKey(ctx, "k1", "up1", now, 30*time.Second); err != nil || !ok {
				t.Fatalf("first claim: %v %v", ok, err)
			}
			ok, a, err := two.ClaimKey(ctx, "k1", "up1", now.Add(time.Second), 30*time.Second)
			if err != nil || ok || a.Done || a.Upload != "up1" {
				t.Fatalf("second claim while the first runs: claimed %v, %+v, %v", ok, a, err)
			}
			if kept, err := one.KeepAnswer(ctx, "k1", "up1", 200, "application/json", []byte(`{"a":1}`), now.Add(2*time.Second), bounds); err != nil || !kept {
				t.Fatalf("keep: %v %v", kept, err)
			}
			ok, a, err = two.ClaimKey(ctx, "k1", "up1", now.Add(30*time.Second), 30*time.Second)
			if err != nil || ok || !a.Done || a.Status != 200 || string(a.Body) != `{"a":1}` {
				t.Fatalf("retry within the TTL: claimed %v, %+v, %v", ok, a, err)
			}
			// Past its TTL the key is taken anew (lazily).
			if ok, _, err := two.ClaimKey(ctx, "k1", "up1", now.Add(2*time.Minute), 30*time.Second); err != nil || !ok {
				t.Fatalf("claim after the TTL: %v %v", ok, err)
			}

			// A claim its replica never finished lapses after the lease.
			if ok, _, _ := one.ClaimKey(ctx, "k2", "up2", now, 10*time.Second); !ok {
				t.Fatal("claim k2")
			}
			if ok, _, _ := two.ClaimKey(ctx, "k2", "up2", now.Add(5*time.Second), 10*time.Second); ok {
				t.Fatal("k2 claimed twice within its lease")
			}
			if ok, _, _ := two.ClaimKey(ctx, "k2", "up2", now.Add(11*time.Second), 10*time.Second); !ok {
				t.Fatal("k2's claim did not lapse after its lease")
			}

			// The purge drops what expired, and only that.
			for i := 0; i < 5; i++ {
				key := fmt.Sprintf("p%d", i)
				at := now.Add(time.Duration(i) * time.Minute)
				one.ClaimKey(ctx, key, "u", at, time.Minute)
				if _, err := one.KeepAnswer(ctx, key, "u", 200, "text/plain", []byte("x"), at, bounds); err != nil {
					t.Fatal(err)
				}
			}
			before := countKeys(t, one)
			n, err := two.PurgeKeys(ctx, now.Add(3*time.Minute+time.Second))
			if err != nil {
				t.Fatal(err)
			}
			// p0..p2 (kept until 1, 2, 3 min) and k1, k2 (claims that
			// lapsed by then) go; p3 and p4 stay.
			if n != 5 || countKeys(t, one) != before-5 {
				t.Errorf("purged %d of %d rows, %d left", n, before, countKeys(t, one))
			}
			for _, key := range []string{"p3", "p4"} {
				if _, err := one.KeyAnswerOf(ctx, key, now.Add(3*time.Minute+time.Second)); err != nil {
					t.Errorf("%s purged before its time: %v", key, err)
				}
			}
			if _, err := one.KeyAnswerOf(ctx, "p0", now); !errors.Is(err, sql.ErrNoRows) {
				t.Errorf("p0 not purged: %v", err)
			}
		})
	}
}

func countKeys(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM idempotency_keys`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIdempotencyKeysBounded: keeping an answer drops the oldest answers
// while more than the bounds are kept, never a claim in flight; an answer
// that cannot fit is not kept and its key is let go.
func TestIdempotencyKeysBounded(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			s := open(t, b.config(t))
			ctx := context.Background()
			now := time.Now()
			body := make([]byte, 1000)
			bounds := KeyBounds{TTL: time.Hour, Entries: 100, Bytes: 3 * (keyOverhead + 1000 + 4)}
			s.ClaimKey(ctx, "running", "u", now, time.Hour) // in flight throughout
			for i := 0; i < 6; i++ {
				key := fmt.Sprintf("a%d", i)
				s.ClaimKey(ctx, key, "u", now.Add(time.Duration(i)*time.Second), time.Minute)
				kept, err := s.KeepAnswer(ctx, key, "u", 200, "text", body, now.Add(time.Duration(i)*time.Second), bounds)
				if err != nil || !kept {
					t.Fatalf("%s: kept %v, %v", key, kept, err)
				}
			}
			var total int64
			s.db.QueryRow(`SELECT COALESCE(SUM(size), 0) FROM idempotency_keys`).Scan(&total)
			if total > bounds.Bytes {
				t.Errorf("%d bytes kept, bound %d", total, bounds.Bytes)
			}
			for _, key := range []string{"a0", "a1", "a2"} {
				if _, err := s.KeyAnswerOf(ctx, key, now); !errors.Is(err, sql.ErrNoRows) {
					t.Errorf("%s, among the oldest, is still kept (%v)", key, err)
				}
			}
			if a, err := s.KeyAnswerOf(ctx, "running", now); err != nil || a.Done {
				t.Errorf("the claim in flight was dropped: %+v %v", a, err)
			}
			if a, err := s.KeyAnswerOf(ctx, "a5", now); err != nil || !a.Done {
				t.Errorf("the newest answer is not kept: %+v %v", a, err)
			}
			// Too large for the bound at all: not kept, key let go.
			s.ClaimKey(ctx, "huge", "u", now, time.Minute)
			if kept, err := s.KeepAnswer(ctx, "huge", "u", 200, "text", make([]byte, 10000), now, bounds); err != nil || kept {
				t.Errorf("an answer over the bound: kept %v, %v", kept, err)
			}
			if ok, _, _ := s.ClaimKey(ctx, "huge", "u", now, time.Minute); !ok {
				t.Error("the key of an answer not kept was not let go")
			}
		})
	}
}

// TestProposalClaims: a hand takes at most max proposals, stored or in
// flight, from any replica; one given back frees its slot, one in flight
// when its replica died frees it after its lease.
func TestProposalClaims(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c := b.config(t)
			one, two := open(t, c), open(t, c)
			ctx := context.Background()
			now := time.Now()
			var ids []int64
			for i := 0; i < 3; i++ {
				s := []*Store{one, two}[i%2]
				id, err := s.ClaimProposal(ctx, "Q1", 1, 3, now, time.Minute)
				if err != nil {
					t.Fatalf("claim %d: %v", i, err)
				}
				ids = append(ids, id)
			}
			if _, err := two.ClaimProposal(ctx, "Q1", 1, 3, now, time.Minute); !errors.Is(err, ErrTooManyClaims) {
				t.Fatalf("a fourth claim: %v, want ErrTooManyClaims", err)
			}
			if _, err := two.ClaimProposal(ctx, "Q1", 2, 3, now, time.Minute); err != nil {
				t.Fatalf("the next hand has its own count: %v", err)
			}
			one.KeepProposal(ctx, ids[0])
			two.ReleaseProposal(ctx, ids[1])
			if _, err := two.ClaimProposal(ctx, "Q1", 1, 3, now, time.Minute); err != nil {
				t.Fatalf("a slot given back: %v", err)
			}
			if _, err := one.ClaimProposal(ctx, "Q1", 1, 3, now.Add(30*time.Second), time.Minute); !errors.Is(err, ErrTooManyClaims) {
				t.Fatalf("full again: %v", err)
			}
			// ids[2] and the last claim lapse after a minute; ids[0] was kept.
			one.ReleaseProposal(ctx, ids[0]) // a kept proposal is not given back
			for i := 0; i < 2; i++ {
				if _, err := one.ClaimProposal(ctx, "Q1", 1, 3, now.Add(2*time.Minute), time.Minute); err != nil {
					t.Fatalf("after the lapse, claim %d: %v", i, err)
				}
			}
			if _, err := one.ClaimProposal(ctx, "Q1", 1, 3, now.Add(2*time.Minute), time.Minute); !errors.Is(err, ErrTooManyClaims) {
				t.Fatalf("the kept proposal stopped counting: %v", err)
			}
		})
	}
}

// TestUpdateLogsConcurrent: writers on two stores (two replicas) appending
// to one log at once each get their own entry; the chain checks.
func TestUpdateLogsConcurrent(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c := b.config(t)
			stores := []*Store{open(t, c), open(t, c)}
			ctx := context.Background()
			const writers, each = 6, 10
			var wg sync.WaitGroup
			errs := make(chan error, writers*each)
			seqs := make(chan int, writers*each)
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < each; i++ {
						err := stores[w%2].UpdateLogs(ctx, []string{"G"}, func(tx *LogTx) error {
							e, err := tx.Append("G", "note", "test", json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)))
							if err == nil {
								seqs <- e.Seq
							}
							return err
						})
						if err != nil {
							errs <- err
						}
					}
				}(w)
			}
			wg.Wait()
			close(errs)
			close(seqs)
			for err := range errs {
				t.Error(err)
			}
			seen := map[int]bool{}
			for s := range seqs {
				if seen[s] {
					t.Errorf("entry %d given twice", s)
				}
				seen[s] = true
			}
			log, err := stores[0].GameLog(ctx, "G")
			if err != nil {
				t.Fatal(err)
			}
			if log.Tampered != "" || len(log.Events) != writers*each || len(seen) != writers*each {
				t.Errorf("%d entries, %d acknowledged, want %d; tampered %q", len(log.Events), len(seen), writers*each, log.Tampered)
			}
		})
	}
}
