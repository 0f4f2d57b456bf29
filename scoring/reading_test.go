package scoring

import "testing"

func TestStandardReadings(t *testing.T) {
	c := counts(t, "111222333m789p55s")
	var got []string
	concealedPungs := map[bool][]int{}
	for _, tsumo := range []bool{false, true} {
		StandardReadings(&c, nil, 2 /* 3m */, tsumo, func(r *Reading) {
			if !tsumo {
				got = append(got, r.String()+" "+r.Wait.String())
			}
			n := 0
			for _, g := range r.Sets {
				if g.Kind == Pung && g.Concealed {
					n++
				}
			}
			concealedPungs[tsumo] = append(concealedPungs[tsumo], n)
		})
	}
	// Three pungs with 333m completed, or three identical 123m chows
	// (completing any of them reads the same, so once).
	want := []string{"111m 222m 333m 789p 55s dual-pung", "123m 123m 123m 789p 55s edge"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("readings = %q, want %q", got, want)
	}
	if concealedPungs[false][0] != 2 || concealedPungs[true][0] != 3 {
		t.Errorf("concealed pungs ron/tsumo = %v/%v, want 2/3: a pung completed by a discard is open", concealedPungs[false], concealedPungs[true])
	}
	// A called meld makes one of the four sets.
	m := MeldGroup(0, Meld{Type: Pon, Tiles: []Tile{White, White, White}, From: FromLeft})
	c2 := counts(t, "123m456p789s11z")
	n := 0
	StandardReadings(&c2, []Group{m}, 27, false, func(r *Reading) {
		n++
		if r.Sets[3] != m || r.Win != -1 || r.Wait != Tanki || r.String() != "123m 456p 789s (555z) 11z" {
			t.Errorf("reading %+v (%s)", r, r.String())
		}
	})
	if n != 1 {
		t.Errorf("%d readings, want 1", n)
	}
}
