package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"mjscan/scoring"
	"mjscan/scoring/riichi"
)

// renderResult writes a result for a person: each yaku or fan, the fu
// table, the payments and the total.
func renderResult(req *scoring.Request, res *scoring.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", req.Rules)
	if res.Preset != "" {
		fmt.Fprintf(&b, " (%s)", res.Preset)
	}
	fmt.Fprintf(&b, ": %s", req.Hand)
	for _, m := range req.Melds {
		fmt.Fprintf(&b, " [%s %s %s]", m.Type, m.Tiles, m.From)
	}
	how := "ron"
	if req.Tsumo {
		how = "tsumo"
	}
	fmt.Fprintf(&b, ", win %s by %s, seat %s, round %s\n", req.WinTile, how, req.SeatWind, req.RoundWind)
	if !res.OK {
		fmt.Fprintf(&b, "\nNot scored (%s): %s\n", res.Error.Code, res.Error.Message)
		return b.String()
	}
	if bd, ok := res.Breakdown.(*riichi.Breakdown); ok {
		fmt.Fprintf(&b, "Reading: %s (%s wait)\n\n", bd.Arrangement, bd.Wait)
	}
	for _, y := range res.Yaku {
		if y.Yakuman > 0 {
			fmt.Fprintf(&b, "  %-26s %d× yakuman\n", y.Name, y.Yakuman)
		} else {
			fmt.Fprintf(&b, "  %-26s %2d han\n", y.Name, y.Han)
		}
	}
	for _, f := range res.Fans {
		fmt.Fprintf(&b, "  %-34s %3d fan × %d\n", f.Name, f.Fan, f.Count)
	}
	for _, p := range res.Patterns {
		fmt.Fprintf(&b, "  %-34s %4d", p.Name, p.Points)
		if p.Doubles > 0 {
			fmt.Fprintf(&b, "  ×2^%d", p.Doubles)
		}
		if p.Detail != "" {
			fmt.Fprintf(&b, "  (%s)", p.Detail)
		}
		b.WriteByte('\n')
	}
	switch bd := res.Breakdown.(type) {
	case *riichi.Breakdown:
		if res.Yakuman > 0 {
			fmt.Fprintf(&b, "\n%d× yakuman\n", res.Yakuman)
		} else {
			fmt.Fprintf(&b, "\n%d han %d fu", res.Han, res.Fu)
			if res.Limit != "" {
				fmt.Fprintf(&b, " — %s", res.Limit)
			}
			b.WriteString("\nFu:\n")
			for _, f := range bd.Fu {
				fmt.Fprintf(&b, "  %3d  %s", f.Fu, f.Reason)
				if f.Set != "" {
					fmt.Fprintf(&b, " %s", f.Set)
				}
				b.WriteByte('\n')
			}
		}
	case nil:
	default:
		if js, err := json.MarshalIndent(bd, "  ", "  "); err == nil {
			fmt.Fprintf(&b, "\nBreakdown:\n  %s\n", js)
		}
	}
	if res.Fan > 0 {
		fmt.Fprintf(&b, "\nTotal: %d fan\n", res.Fan)
	}
	if res.Value != nil && *res.Value > 0 {
		fmt.Fprintf(&b, "\nHand value: %d\n", *res.Value)
	}
	if res.Score > 0 {
		fmt.Fprintf(&b, "\nHand score: %d\n", res.Score)
	}
	b.WriteString("Payments:\n")
	for _, p := range res.Points.Payments {
		fmt.Fprintf(&b, "  %-14s pays %6d", p.From, p.Amount)
		if p.Note != "" {
			fmt.Fprintf(&b, "  (%s)", p.Note)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Winner receives %d\n", res.Points.Total)
	return b.String()
}
