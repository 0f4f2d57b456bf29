package fault

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindThroughWrapping(t *testing.T) {
	cause := errors.New("disk on fire")
	err := fmt.Errorf("saving: %w", Wrap(cause, Unavailable, "", "the record cannot be written just now"))
	if KindOf(err) != Unavailable || !Is(err, Unavailable) || Is(err, Busy) {
		t.Fatalf("kind of %v is %v", err, KindOf(err))
	}
	if !errors.Is(err, cause) {
		t.Error("the cause is lost")
	}
	if KindOf(errors.New("plain")) != Internal || KindOf(nil) != Internal {
		t.Error("an error that is not a domain error must count as internal")
	}
	e, _ := As(err)
	if e.Message != "the record cannot be written just now" {
		t.Errorf("message %q", e.Message)
	}
}

func TestKindNames(t *testing.T) {
	for k := Internal; k <= Exhausted; k++ {
		if s := k.String(); s == "" || s[0] == 'K' {
			t.Errorf("kind %d has no name", int(k))
		}
	}
}
