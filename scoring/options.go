package scoring

import "sort"

// Presets are a rule set's named presets: rule values, one per name.
type Presets[R any] map[string]R

// Names lists the presets in a stable order.
func (p Presets[R]) Names() []string {
	out := make([]string, 0, len(p))
	for k := range p {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the named preset ("" is "default"), or a bad_request that
// lists the presets ruleSet offers.
func (p Presets[R]) Lookup(ruleSet, name string) (R, *Error) {
	if name == "" {
		name = "default"
	}
	r, ok := p[name]
	if !ok {
		return r, Errorf(CodeBadRequest, "unknown %s preset %q: choose one of %v", ruleSet, name, p.Names())
	}
	return r, nil
}

// OptionReader applies request options to rule fields, keeping the first
// error: read every option, then check Err once.
type OptionReader struct {
	Options map[string]any
	Err     *Error
}

// Bool sets *p from a boolean option when present.
func (o *OptionReader) Bool(p *bool, name string) {
	if o.Err == nil {
		*p, o.Err = BoolOption(o.Options, name, *p)
	}
}

// Int sets *p from a whole-number option when present.
func (o *OptionReader) Int(p *int, name string) {
	if o.Err == nil {
		*p, o.Err = IntOption(o.Options, name, *p)
	}
}

// String sets *p from a string option when present.
func (o *OptionReader) String(p *string, name string) {
	if o.Err == nil {
		*p, o.Err = StringOption(o.Options, name, *p)
	}
}
