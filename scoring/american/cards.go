package american

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

// The shipped cards. Real NMJL cards are copyrighted: only a sample built
// from the four 2013 hands quoted in seed 000 ships; users supply their own
// card in the same format (FORMAT.md).
//
//go:embed cards/*.json
var cardFiles embed.FS

// DefaultCard is the card used when a request names none.
const DefaultCard = "nmjl_2013_sample"

var (
	cardsOnce sync.Once
	cards     map[string]*Card
	cardsErr  error
)

// Cards returns the shipped cards by name (file name without .json). A
// shipped card that does not load is a build error, reported by the tests.
func Cards() (map[string]*Card, error) {
	cardsOnce.Do(func() {
		cards = map[string]*Card{}
		ents, err := cardFiles.ReadDir("cards")
		if err != nil {
			cardsErr = err
			return
		}
		for _, e := range ents {
			name := strings.TrimSuffix(e.Name(), ".json")
			data, err := cardFiles.ReadFile(path.Join("cards", e.Name()))
			if err != nil {
				cardsErr = err
				return
			}
			c, err := ParseCard(name, data)
			if err != nil {
				cardsErr = err
				return
			}
			cards[name] = c
		}
	})
	return cards, cardsErr
}

// CardNames lists the shipped cards.
func CardNames() []string {
	cs, _ := Cards()
	out := make([]string, 0, len(cs))
	for k := range cs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cardFor reads option "card": a shipped card's name, or a whole card
// document (an object in the mjscan-card/1 format) supplied by the user.
func cardFor(opts map[string]any) (*Card, error) {
	v, ok := opts["card"]
	if !ok || v == nil {
		v = DefaultCard
	}
	switch x := v.(type) {
	case string:
		cs, err := Cards()
		if err != nil {
			return nil, err
		}
		c, ok := cs[x]
		if !ok {
			return nil, fmt.Errorf("option card: no card named %q; shipped cards: %v (or give a whole %s document as the option's value)", x, CardNames(), CardFormat)
		}
		return c, nil
	case map[string]any:
		data, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("option card: %v", err)
		}
		name, _ := x["card"].(string)
		if name == "" {
			name = "supplied"
		}
		return ParseCard(name, data)
	}
	return nil, fmt.Errorf("option card: want a card name or a %s document, got %T", CardFormat, v)
}
