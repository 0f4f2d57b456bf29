package scoring

// Best chooses the best of a hand's readings: it keeps every evaluation
// in the order added (the breakdown lists them as the alternatives) and
// the one that counts most; of readings that count alike, the first
// added. The zero value with Better set is ready to use.
type Best[E any] struct {
	// Better says whether a counts more than b.
	Better func(a, b *E) bool
	all    []E
	best   int // index in all of the chosen one, plus one; 0 for none
}

// Add keeps a copy of one reading's evaluation.
func (b *Best[E]) Add(e *E) {
	b.all = append(b.all, *e)
	last := &b.all[len(b.all)-1]
	if b.best == 0 || b.Better(last, &b.all[b.best-1]) {
		b.best = len(b.all)
	}
}

// Chosen is the evaluation that counts most, nil when none was added.
func (b *Best[E]) Chosen() *E {
	if b.best == 0 {
		return nil
	}
	return &b.all[b.best-1]
}

// All lists every evaluation in the order added.
func (b *Best[E]) All() []E { return b.all }

// Alternative is one reading of a hand that a rule set weighed, as a
// referee compares a claim with it.
type Alternative struct {
	// Shown is the rule set's own account of the reading, as its
	// breakdown lists it.
	Shown any
	// Arrangement writes the reading's sets for people.
	Arrangement string
	// Chosen marks the reading the result counts.
	Chosen bool
	Worth  Worth
}

// Worth is what one reading is worth, in the Result fields that a claim
// names. A rule set sets those its readings count and leaves the others
// nil.
type Worth struct {
	Han, Fu, Yakuman *int
	// Points is what the winner receives in all (points.total).
	Points       *int
	Value, Score *int
}

// Weighed is a breakdown that lists the readings weighed for it.
type Weighed interface {
	Readings() []Alternative
}
