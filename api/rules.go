package api

import (
	"net/http"
	"sort"

	"github.com/labstack/echo/v4"

	"mjscan/scoring/american"
	"mjscan/scoring/rulebook"
)

// RuleSet describes one rule set for clients choosing one: its presets,
// the options it reads, and the facts of play (hand request fields) a
// situation form asks for under it.
type RuleSet struct {
	Name    string   `json:"name"`
	Presets []string `json:"presets"`
	Version string   `json:"version"`
	// Options are the option names the rule set reads (CONTRACT section 3).
	Options []string `json:"options"`
	// Choices lists the values an option takes where it is one of a few
	// names, such as the American card.
	Choices map[string][]string `json:"choices,omitempty"`
	// Fields are the situation fields of a hand request the rule set uses.
	Fields []string `json:"fields"`
	// Tiles are the tile codes the rule set's hands may hold beyond the
	// suits, honours and flowers (jokers, kings, queens): a palette offers
	// them only where they count.
	Tiles []string `json:"tiles"`
}

// extraTiles are the jokers, kings and queens each rule set plays with
// (CONTRACT section 1): Vietnamese kings, queens and its eight jokers, the
// American joker.
var extraTiles = map[string][]string{
	"vietnamese": {"1k", "2k", "3k", "4k", "5k", "6k", "7k", "8k", "1j", "2j", "3j", "4j", "5j", "6j", "7j", "8j"},
	"american":   {"9j"},
}

func ruleTiles(name string) []string {
	return append([]string{}, extraTiles[name]...)
}

// winFields are the facts of a win every rule set with kongs and a wall reads.
var winFields = []string{"tsumo", "seat_wind", "round_wind", "rinshan", "chankan", "haitei", "houtei"}

// situationFields are the hand request fields each rule set uses beyond the
// tiles; a rule set not listed gets winFields and flowers.
var situationFields = map[string][]string{
	"riichi":    append(winFields[:len(winFields):len(winFields)], "riichi", "double_riichi", "ippatsu", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks"),
	"sanma":     append(winFields[:len(winFields):len(winFields)], "riichi", "double_riichi", "ippatsu", "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks"),
	"mcr":       append(winFields[:len(winFields):len(winFields)], "last_tile_of_kind", "flowers"),
	"zung-jung": {"tsumo", "seat_wind", "rinshan", "chankan", "haitei", "houtei", "flowers"},
	"wsm":       {"tsumo", "seat_wind", "rinshan", "chankan", "haitei", "houtei", "flowers"},
	"american":  {"tsumo", "seat_wind", "flowers"},
}

func ruleFields(name string) []string {
	if f, ok := situationFields[name]; ok {
		return f
	}
	return append(winFields[:len(winFields):len(winFields)], "flowers")
}

func ruleChoices(name string) map[string][]string {
	if name != "american" {
		return nil
	}
	cards, err := american.Cards()
	if err != nil || len(cards) == 0 {
		return nil
	}
	names := make([]string, 0, len(cards))
	for n := range cards {
		names = append(names, n)
	}
	sort.Strings(names)
	return map[string][]string{"card": names}
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
		opts := append([]string{}, e.Options()...)
		out.Rules = append(out.Rules, RuleSet{Name: name, Presets: presets, Version: v,
			Options: opts, Choices: ruleChoices(name), Fields: ruleFields(name), Tiles: ruleTiles(name)})
	}
	out.Versions = s.versions()
	return c.JSON(http.StatusOK, out)
}
