package referee

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

func TestGameLog(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c := b.config(t)
			s := open(t, c)
			add := func(game string, seq int, kind string) error {
				_, err := s.AppendGameEvent(ctx, GameEvent{Game: game, Seq: seq, Kind: kind, Body: json.RawMessage(`{"n":1}`)})
				return err
			}
			for _, e := range []struct {
				game string
				seq  int
			}{{"Q1", 1}, {"Q2", 1}, {"Q1", 2}, {"Q1", 3}, {"Q2", 2}} {
				if err := add(e.game, e.seq, "play"); err != nil {
					t.Fatal(err)
				}
			}
			for _, seq := range []int{3, 5} {
				if err := add("Q1", seq, "play"); !errors.Is(err, ErrSeqTaken) {
					t.Fatalf("entry %d of a log with 3: %v", seq, err)
				}
			}
			if _, err := s.AppendGameEvent(ctx, GameEvent{Game: "Q1", Seq: 4, Kind: "play", Body: json.RawMessage(`{`)}); err == nil {
				t.Fatal("a body that is not JSON was stored")
			}
			if _, err := s.db.ExecContext(ctx, `DELETE FROM game_events`); err == nil {
				t.Fatal("a game log entry was deleted")
			}
			s.Close()
			s = open(t, c)
			logs, err := s.GameLogs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(logs) != 2 || logs[0].Game != "Q1" || len(logs[0].Events) != 3 || len(logs[1].Events) != 2 ||
				logs[0].Events[2].Seq != 3 || logs[0].Tampered != "" || logs[1].Tampered != "" {
				t.Fatalf("logs %+v", logs)
			}
		})
	}
}

func TestTableSetups(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, b.config(t))
			for _, body := range []string{`{"v":1}`, `{"v":2}`} {
				if _, err := s.AppendTableSetup(ctx, TableSetup{Table: "t1", Body: json.RawMessage(body)}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.AppendTableSetup(ctx, TableSetup{Table: "t2", Body: json.RawMessage(`{"v":3}`)}); err != nil {
				t.Fatal(err)
			}
			got, problems, err := s.TableSetups(ctx)
			if err != nil || len(got) != 2 || string(got["t1"].Body) != `{"v":2}` || len(problems) != 0 {
				t.Fatalf("setups %v %v %v", got, problems, err)
			}
			if _, err := s.db.ExecContext(ctx, `UPDATE table_setups SET body = '{}'`); err == nil {
				t.Fatal("a table setup was changed in place")
			}
		})
	}
}
