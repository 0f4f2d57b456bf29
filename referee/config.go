package referee

import (
	"errors"
	"strings"
)

// Config says where the referee record is kept. PostgreSQL is used when a
// DSN is given; otherwise an embedded SQLite file.
type Config struct {
	// PostgresDSN, when set, is a postgres:// URL or key=value DSN.
	PostgresDSN string
	// SQLitePath is the SQLite file used when no DSN is set.
	SQLitePath string
}

// Environment variables read by LoadConfig.
const (
	EnvPostgresDSN = "MJSCAN_REFEREE_DSN"
	EnvSQLitePath  = "MJSCAN_REFEREE_DB"
)

// DefaultSQLitePath is where the record lives when nothing is configured.
const DefaultSQLitePath = "data/referee.db"

// LoadConfig reads the two variables through getenv.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := Config{PostgresDSN: getenv(EnvPostgresDSN), SQLitePath: getenv(EnvSQLitePath)}
	if c.SQLitePath == "" {
		c.SQLitePath = DefaultSQLitePath
	}
	return c, c.Validate()
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var errs []error
	if c.PostgresDSN != "" && !strings.HasPrefix(c.PostgresDSN, "postgres://") &&
		!strings.HasPrefix(c.PostgresDSN, "postgresql://") && !strings.Contains(c.PostgresDSN, "=") {
		errs = append(errs, errors.New(EnvPostgresDSN+": not a PostgreSQL DSN (postgres://… or key=value)"))
	}
	if c.PostgresDSN == "" && strings.TrimSpace(c.SQLitePath) == "" {
		errs = append(errs, errors.New(EnvSQLitePath+": the SQLite file path is empty"))
	}
	if strings.ContainsAny(c.SQLitePath, "?#") {
		errs = append(errs, errors.New(EnvSQLitePath+": a plain file path, without ? or #"))
	}
	return errors.Join(errs...)
}
