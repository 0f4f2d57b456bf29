package referee

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// ErrInvalid marks input the record refuses to store: a field missing,
// a name with a control character, text that is not UTF-8. The message
// says which field and what to change; the API answers it with a 400.
var ErrInvalid = errors.New("the referee record refuses this input")

type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}

// Both stores keep text as UTF-8, and PostgreSQL refuses a NUL byte in
// any text column outright (SQLite keeps it). So the record refuses the
// same things on both before the database sees them: text that is not
// UTF-8, and control characters. Names and ids (a table, a game, who
// asked) take none at all; free text a person writes (a ruling, the
// reason for a correction) may hold tabs and line breaks.

// What a record keeps is bounded: a name or id, a ruling written at a
// table, a scored hand with its breakdown, a hand's corrections. The
// bounds are far above any real record and keep a mistaken or hostile
// one from filling the database.
const (
	MaxNameLen     = 200
	MaxTextLen     = 4000
	MaxJSONBytes   = 256 << 10
	MaxCorrections = 200
)

// checkName refuses a name or id that is not plain printable text.
func checkName(field, v string) error {
	return checkString(field, v, false, MaxNameLen)
}

// CouldHold reports whether name could name a log or a table in the
// record: a name that is not UTF-8 or holds a control character was never
// stored (both stores refuse it), and PostgreSQL cannot even be asked
// about one holding a NUL. Reads by such a name find nothing.
func CouldHold(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// CheckLogName is what UpdateLogs asks of a log's name: a log whose name
// fails it was never written.
func CheckLogName(name string) error {
	return checkName("the log's name", name)
}

// checkText refuses free text with control characters other than tab,
// line feed and carriage return.
func checkText(field, v string) error {
	return checkString(field, v, true, MaxTextLen)
}

func checkString(field, v string, lines bool, max int) error {
	if !utf8.ValidString(v) {
		return invalid("%s is not UTF-8 text: send it as UTF-8", field)
	}
	if n := utf8.RuneCountInString(v); n > max {
		return invalid("%s is %d characters long: at most %d are kept", field, n, max)
	}
	for _, r := range v {
		if lines && (r == '\t' || r == '\n' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return invalid("%s holds a control character (%U): remove it; %s", field, r, allowed(lines))
		}
	}
	return nil
}

func allowed(lines bool) string {
	if lines {
		return "only tabs and line breaks are allowed in this text"
	}
	return "names and ids are printable text only"
}

// checkJSON refuses a JSON document that is not UTF-8 or whose keys or
// string values hold control characters other than tab and line breaks
// (JSON escapes such as \u0000 included).
func checkJSON(field string, raw []byte) error {
	if !utf8.Valid(raw) {
		return invalid("%s is not UTF-8 text: send it as UTF-8", field)
	}
	if len(raw) > MaxJSONBytes {
		return invalid("%s is %d KiB: at most %d KiB are kept", field, len(raw)>>10, MaxJSONBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	// The message names the key a refused value is under, which is the
	// field the client sent: each open object says whether its next
	// string is a key.
	type level struct{ object, wantKey bool }
	var open []level
	key := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalid("%s must be JSON", field)
		}
		top := len(open) - 1
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				open = append(open, level{object: v == '{', wantKey: v == '{'})
				continue
			}
			open = open[:top]
		case string:
			isKey := top >= 0 && open[top].wantKey
			name := field
			if !isKey && key != "" {
				name = fmt.Sprintf("%s's %q", field, key)
			}
			if err := checkString(name, v, true, MaxJSONBytes); err != nil {
				return err
			}
			if isKey {
				key, open[top].wantKey = v, false
				continue
			}
		}
		// A value ended: the object it is in wants a key next.
		if top := len(open) - 1; top >= 0 && open[top].object {
			open[top].wantKey = true
		}
	}
}
