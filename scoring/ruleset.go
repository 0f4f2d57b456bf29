package scoring

import (
	"fmt"
	"sort"
	"strings"
)

// Engine scores hand requests under one rule set. NewEngine makes one from
// a RuleSet; the rulebook lists them by name.
type Engine interface {
	// Name is the CONTRACT rules value, such as "riichi".
	Name() string
	// Presets lists the preset names the rule set accepts, sorted.
	Presets() []string
	// Options lists the options the rule set reads; it refuses any other.
	Options() []string
	// Score scores one request. It never panics on bad input: every
	// problem comes back as a Result with ok false.
	Score(r *Request) Result
}

// RuleSet is one rule set as a value: its presets, the options it reads,
// how it reads a request and how it scores what it read. R is its rules
// (each preset is a value of R); H is what it reads from a request: the
// hand and the facts of play it uses.
//
// Every rule set is scored along the same path (NewEngine): the preset is
// resolved, unknown options are refused, the others applied, the request
// read, the hand scored, and the result answers with the request's id and
// rules and the preset applied. A rule set supplies only the steps that
// are its own.
type RuleSet[R, H any] struct {
	// Name is the CONTRACT rules value.
	Name string
	// Presets are the rules by preset name.
	Presets Presets[R]
	// Default is the preset of a request that names none, or names
	// "default" where no preset has that name.
	Default string
	// Options names every option the rule set reads, in the order its
	// documentation gives them.
	Options []string
	// WithOptions applies a request's options (only known ones) to a copy
	// of the preset's rules.
	WithOptions func(rules R, options map[string]any) (R, *Error)
	// Read reads a request's tiles and the facts of play the rule set uses.
	Read func(r *Request) (H, *Error)
	// Score scores what Read read under the rules. A result with an error
	// is not ok; its id, rules and preset are filled in for it.
	Score func(h H, rules *R) Result
}

// NewEngine makes the engine of a rule set.
func NewEngine[R, H any](rs RuleSet[R, H]) Engine {
	e := &engine[R, H]{rs: rs, presets: rs.Presets.Names()}
	if _, ok := rs.Presets[rs.Default]; !ok {
		panic(fmt.Sprintf("rule set %s: default preset %q is not one of %v", rs.Name, rs.Default, e.presets))
	}
	return e
}

type engine[R, H any] struct {
	rs      RuleSet[R, H]
	presets []string
}

func (e *engine[R, H]) Name() string { return e.rs.Name }

func (e *engine[R, H]) Presets() []string { return append([]string(nil), e.presets...) }

func (e *engine[R, H]) Options() []string { return append([]string(nil), e.rs.Options...) }

func (e *engine[R, H]) Score(r *Request) Result {
	rs := &e.rs
	name := r.Preset
	if _, ok := rs.Presets[name]; !ok && (name == "" || name == "default") {
		name = rs.Default
	}
	rules, err := rs.Presets.Lookup(rs.Name, name)
	if err != nil {
		return Fail(r, err)
	}
	if err := e.checkOptions(r.Options); err != nil {
		return Fail(r, err)
	}
	if rules, err = rs.WithOptions(rules, r.Options); err != nil {
		return Fail(r, err)
	}
	h, err := rs.Read(r)
	if err != nil {
		return Fail(r, err)
	}
	res := rs.Score(h, &rules)
	res.ID, res.Rules, res.Preset = r.ID, r.Rules, name
	if res.Error != nil {
		res.OK = false
	}
	return res
}

// checkOptions refuses options the rule set does not read, naming them and
// the ones it does: a misspelt option must not be ignored in silence.
func (e *engine[R, H]) checkOptions(opts map[string]any) *Error {
	var unknown []string
	for k := range opts {
		if !e.knows(k) {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	known := "it has no options"
	if len(e.rs.Options) > 0 {
		known = "its options are " + strings.Join(e.rs.Options, ", ")
	}
	if len(unknown) == 1 {
		return Errorf(CodeBadRequest, "option %s is not an option of rule set %s; %s", unknown[0], e.rs.Name, known)
	}
	return Errorf(CodeBadRequest, "options %s are not options of rule set %s; %s", strings.Join(unknown, ", "), e.rs.Name, known)
}

func (e *engine[R, H]) knows(option string) bool {
	for _, o := range e.rs.Options {
		if o == option {
			return true
		}
	}
	return false
}
