// Package referee keeps the referee record: every scoring decision made at
// a tournament table, append-only. A record says who asked, which photo
// (its hash, and the photo itself unless the table opted out), which model,
// engine and rule-set versions, the recognised tiles, every manual
// correction, the claimed score, the computed score with its breakdown and
// the ruling. Nothing is ever changed or deleted: a ruling is overturned
// only by a new record that points at the old one, so the record shows
// later exactly what was decided, when, by whom and why. Every record, and
// every entry of a game's log and of a table's setups (each chained to the
// one before), carries a digest that is checked whenever it is read: what
// was changed behind the store's back is reported, not believed.
//
// Records live in SQLite (embedded, pure Go, WAL) by default and in
// PostgreSQL when a DSN is configured; one schema, one set of migrations,
// the same tests for both.
package referee
