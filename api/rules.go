package api

import (
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"mjscan/scoring/rulebook"
)

// RuleSet describes one rule set for clients choosing one.
type RuleSet struct {
	Name    string   `json:"name"`
	Presets []string `json:"presets"`
	Version string   `json:"version"`
}

func (s *Server) getRules(c echo.Context) error {
	var out struct {
		Rules    []RuleSet `json:"rules"`
		Versions Versions  `json:"versions"`
	}
	for _, name := range rulebook.Names() {
		e, _ := rulebook.Lookup(name)
		presets := append([]string(nil), e.Presets()...)
		sort.Strings(presets)
		v := s.deps.Version
		if ev, ok := e.(versioned); ok {
			v = ev.Version()
		}
		out.Rules = append(out.Rules, RuleSet{Name: name, Presets: presets, Version: v})
	}
	out.Versions = s.versions()
	return c.JSON(http.StatusOK, out)
}
