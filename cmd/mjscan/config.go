package main

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"mjscan/api"
	"mjscan/referee"
)

// serveConfig is every setting of `mjscan serve`, composed of the
// packages' own Configs (each with its defaults and Validate): the
// service's, the template bank, the tournament staff tokens and the
// referee record. cmd only loads it, prints it and wires the packages.
type serveConfig struct {
	API api.Config
	// Bank names a template bank (mjscan calibrate) to read photos with;
	// "" reads with the shipped models alone.
	Bank string
	// Tournament is nil when neither staff token is set: the tournament
	// routes are then off, and Records unused.
	Tournament *api.TournamentConfig
	Records    referee.Config
	// RecordsNamed says the record was named (MJSCAN_REFEREE_DB or
	// MJSCAN_REFEREE_DSN): it is opened, for players' tile sets, even with
	// the tournament routes off.
	RecordsNamed bool
}

// envBank names a template bank (mjscan calibrate) to read photos with.
const envBank = api.EnvPrefix + "BANK"

// loadServeConfig reads every package's settings through getenv and
// reports every problem at once, so one start-up shows them all.
func loadServeConfig(getenv func(string) string) (serveConfig, error) {
	var c serveConfig
	var errs []error
	var err error
	if c.API, err = api.LoadConfig(getenv); err != nil {
		errs = append(errs, err)
	}
	c.Bank = strings.TrimSpace(getenv(envBank))
	c.RecordsNamed = getenv(referee.EnvSQLitePath) != "" || getenv(referee.EnvPostgresDSN) != ""
	if getenv(api.EnvRefereeToken) != "" || getenv(api.EnvOrganizerToken) != "" {
		t, err := api.LoadTournamentConfig(getenv)
		if err != nil {
			errs = append(errs, err)
		}
		c.Tournament = &t
	}
	if c.Tournament != nil || c.RecordsNamed {
		if c.Records, err = referee.LoadConfig(getenv); err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

// Describe lists every setting, one a line with its variable and meaning,
// for the start-up log. Secrets (the staff tokens, a database password)
// are masked: the log says whether they are set, never what they are.
func (c serveConfig) Describe() []string {
	out := c.API.Describe()
	line := func(name, value, help string) {
		out = append(out, fmt.Sprintf("%s=%s  (%s)", name, value, help))
	}
	bank := c.Bank
	if bank == "" {
		bank = `""`
	}
	line(envBank, bank, "template bank of the table's own tile set; none: the shipped models alone")
	if c.Tournament == nil {
		line(api.EnvRefereeToken, "(not set)", "referee token; with the organiser token it turns the tournament routes on")
		line(api.EnvOrganizerToken, "(not set)", "organiser token")
		if !c.RecordsNamed {
			return out
		}
	} else {
		line(api.EnvRefereeToken, maskSecret(c.Tournament.RefereeToken), "referee token")
		line(api.EnvOrganizerToken, maskSecret(c.Tournament.OrganizerToken), "organiser token")
	}
	dsn := maskDSN(c.Records.PostgresDSN)
	if dsn == "" {
		dsn = `""`
	}
	line(referee.EnvPostgresDSN, dsn, "PostgreSQL referee record; none: SQLite")
	line(referee.EnvSQLitePath, c.Records.SQLitePath, "SQLite referee record, when no DSN is set")
	return out
}

// maskSecret says a secret is set without a character of it.
func maskSecret(s string) string {
	if s == "" {
		return "(not set)"
	}
	return "(set, hidden)"
}

// dsnPassword finds a key=value DSN's password.
var dsnPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// maskDSN hides the password of a postgres:// URL or key=value DSN.
func maskDSN(dsn string) string {
	if dsn == "" {
		return ""
	}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "hidden")
		}
		if q := u.Query(); q.Has("password") {
			q.Set("password", "hidden")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	return dsnPassword.ReplaceAllString(dsn, "${1}hidden")
}
