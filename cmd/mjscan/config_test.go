package main

import (
	"strings"
	"testing"
)

// TestServeSettingsMasked: the start-up settings name every variable, the
// bank, the tokens and the referee record included, and never show a
// secret.
func TestServeSettingsMasked(t *testing.T) {
	env := map[string]string{
		"MJSCAN_BANK":            "/etc/mjscan/club.mjb",
		"MJSCAN_REFEREE_TOKEN":   "referee-secret-0123456789",
		"MJSCAN_ORGANIZER_TOKEN": "organizer-secret-0123456789",
		"MJSCAN_REFEREE_DSN":     "postgres://mj:dsn-secret@db.local:5432/mj?sslmode=disable&password=query-secret",
	}
	cfg, err := loadServeConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(cfg.Describe(), "\n")
	for _, name := range []string{"MJSCAN_ADDR", "MJSCAN_WORKERS", "MJSCAN_BANK=/etc/mjscan/club.mjb", "MJSCAN_REFEREE_TOKEN=(set, hidden)",
		"MJSCAN_ORGANIZER_TOKEN=(set, hidden)", "MJSCAN_REFEREE_DSN=postgres://mj:hidden@db.local:5432/mj", "MJSCAN_REFEREE_DB="} {
		if !strings.Contains(all, name) {
			t.Errorf("the settings do not show %s:\n%s", name, all)
		}
	}
	for _, secret := range []string{"secret"} {
		if strings.Contains(all, secret) {
			t.Errorf("the settings show a secret:\n%s", all)
		}
	}
	if got := maskDSN("host=db user=mj password='a b\\'c' dbname=mj"); strings.Contains(got, "a b") || !strings.Contains(got, "password=hidden dbname=mj") {
		t.Errorf("key=value DSN masked as %q", got)
	}

	// Without tokens the tournament settings still show, as not set.
	cfg, err = loadServeConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(cfg.Describe(), "\n"); !strings.Contains(all, "MJSCAN_REFEREE_TOKEN=(not set)") || !strings.Contains(all, `MJSCAN_BANK=""`) {
		t.Errorf("settings without tokens:\n%s", all)
	}
}
