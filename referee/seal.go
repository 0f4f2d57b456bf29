package referee

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// seal gives what versions before schema step 5 wrote the digests of this
// version, inside that step's transaction, with UPDATE allowed for its
// length only:
//   - each referee record's old digest (it covered the photo's bytes) is
//     checked; a record that passes is sealed anew (the old digest kept as
//     legacy_digest), and one that fails keeps scheme 1, which every read
//     then reports as tampered;
//   - photos move to referee_photos;
//   - game logs and table setups, which had no digest, are chained as they
//     stand at the upgrade.
func seal(ctx context.Context, tx *sql.Tx, d dialect) error {
	for _, table := range []string{"referee_records", "game_events", "table_setups"} {
		for _, q := range d.allowUpdates(table) {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	for _, step := range []func(context.Context, *sql.Tx, dialect) error{sealRecords, movePhotos, sealGameLogs, sealTableSetups} {
		if err := step(ctx, tx, d); err != nil {
			return err
		}
	}
	for _, table := range []string{"referee_records", "game_events", "table_setups"} {
		for _, q := range d.forbidUpdates(table) {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// ids reads a column of ids first, so that the rows they name can be read
// one at a time (a photo at a time) on the same connection.
func ids(ctx context.Context, tx *sql.Tx, q string) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func sealRecords(ctx context.Context, tx *sql.Tx, d dialect) error {
	list, err := ids(ctx, tx, `SELECT id FROM referee_records ORDER BY id`)
	if err != nil {
		return err
	}
	for _, id := range list {
		var r Record
		var at int64
		var photo []byte
		var corr, request, computed string
		var overturns sql.NullInt64
		err := tx.QueryRowContext(ctx, rebind(d, `SELECT at_us, table_name, game, hand, asked_by, photo_sha256, photo,
			model_version, engine_version, rule_set, recognized, corrections, request, claimed, computed, ruling, referee,
			overturns, digest FROM referee_records WHERE id = ?`), id).Scan(&at, &r.Table, &r.Game, &r.Hand, &r.AskedBy,
			&r.PhotoSHA256, &photo, &r.ModelVersion, &r.EngineVersion, &r.RuleSet, &r.Recognized, &corr, &request,
			&r.Claimed, &computed, &r.Ruling, &r.Referee, &overturns, &r.Digest)
		if err != nil {
			continue // unreadable: left at scheme 1, reported when read
		}
		if corr != "[]" && json.Unmarshal([]byte(corr), &r.Corrections) != nil {
			continue
		}
		if request != "" {
			r.Request = json.RawMessage(request)
		}
		if computed != "" {
			r.Computed = json.RawMessage(computed)
		}
		r.Overturns = overturns.Int64
		if r.legacyDigest(photo) != r.Digest {
			continue
		}
		r.At = time.UnixMicro(at).UTC()
		if _, err := tx.ExecContext(ctx, rebind(d, `UPDATE referee_records SET digest = ?, legacy_digest = ?, digest_scheme = ? WHERE id = ?`),
			r.ComputeDigest(), r.Digest, digestScheme, id); err != nil {
			return err
		}
	}
	return nil
}

// movePhotos moves the photos into referee_photos, once their records
// are sealed (the old digests covered their bytes).
func movePhotos(ctx context.Context, tx *sql.Tx, d dialect) error {
	for _, q := range []string{
		`INSERT INTO referee_photos (record_id, photo) SELECT id, photo FROM referee_records WHERE photo IS NOT NULL`,
		`UPDATE referee_records SET photo = NULL WHERE photo IS NOT NULL`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// sealed digests wait in memory until the rows that gave them are closed.
type sealedRow struct {
	id     int64
	digest string
}

func sealGameLogs(ctx context.Context, tx *sql.Tx, d dialect) error {
	return sealChains(ctx, tx, d, "game_events", `SELECT id, game, seq, at_us, kind, by_whom, body FROM game_events ORDER BY game, seq`,
		func(rows *sql.Rows) (int64, string, func(string) string, error) {
			var id, at int64
			var e GameEvent
			var body string
			err := rows.Scan(&id, &e.Game, &e.Seq, &at, &e.Kind, &e.By, &body)
			e.At, e.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
			return id, e.Game, e.digest, err
		})
}

func sealTableSetups(ctx context.Context, tx *sql.Tx, d dialect) error {
	return sealChains(ctx, tx, d, "table_setups", `SELECT id, table_name, at_us, by_whom, body FROM table_setups ORDER BY table_name, id`,
		func(rows *sql.Rows) (int64, string, func(string) string, error) {
			var id, at int64
			var t TableSetup
			var body string
			err := rows.Scan(&id, &t.Table, &at, &t.By, &body)
			t.At, t.Body = time.UnixMicro(at).UTC(), json.RawMessage(body)
			return id, t.Table, t.digest, err
		})
}

// sealChains gives every row that query reads of table the digest chained
// to the one before it in its chain (a game's log, a table's setups, in
// order): scan reads a row's id, its chain and how to digest it.
func sealChains(ctx context.Context, tx *sql.Tx, d dialect, table, query string, scan func(*sql.Rows) (int64, string, func(string) string, error)) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	var out []sealedRow
	prev := map[string]string{}
	for rows.Next() {
		id, chain, digest, err := scan(rows)
		if err != nil {
			rows.Close()
			return err
		}
		prev[chain] = digest(prev[chain])
		out = append(out, sealedRow{id, prev[chain]})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return update(ctx, tx, d, table, out)
}

func update(ctx context.Context, tx *sql.Tx, d dialect, table string, rows []sealedRow) error {
	q := rebind(d, `UPDATE `+table+` SET digest = ? WHERE id = ?`)
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, q, r.digest, r.id); err != nil {
			return err
		}
	}
	return nil
}
