package scoring

import (
	"reflect"
	"testing"
)

// TestBest: every evaluation is kept in the order added, the one that
// counts most is chosen, and of evaluations that count alike the first.
func TestBest(t *testing.T) {
	type eval struct{ reading, value int }
	for _, tc := range []struct {
		values []int
		best   int
	}{{nil, -1}, {[]int{3}, 0}, {[]int{3, 8, 5}, 1}, {[]int{8, 3, 8}, 0}, {[]int{1, 2, 2}, 1}} {
		b := Best[eval]{Better: func(a, b *eval) bool { return a.value > b.value }}
		var cur eval
		for i, v := range tc.values {
			cur = eval{i, v}
			b.Add(&cur)
		}
		cur = eval{-1, 99} // the evaluation added was copied
		got := -1
		if c := b.Chosen(); c != nil {
			got = c.reading
		}
		if got != tc.best || len(b.All()) != len(tc.values) {
			t.Errorf("%v: chose %d of %d, want %d of %d", tc.values, got, len(b.All()), tc.best, len(tc.values))
			continue
		}
		for i, e := range b.All() {
			if !reflect.DeepEqual(e, eval{i, tc.values[i]}) {
				t.Errorf("%v: evaluation %d is %+v", tc.values, i, e)
			}
		}
	}
}
