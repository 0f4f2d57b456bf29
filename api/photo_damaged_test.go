package api

import (
	"strings"
	"testing"
)

// TestDamagedPhoto: a photo cut short is refused as damaged, in words the
// player can act on, instead of being read as a photo with no tiles; the
// recogniser never sees it.
func TestDamagedPhoto(t *testing.T) {
	fake := &fakeRecognizer{rec: handRecognition()}
	_, ts := newTestServer(t, fake, nil)
	photo := samplePhoto(t)
	a := postPhoto(t, ts.URL+"/v1/recognitions", photo[:len(photo)/2], nil, "")
	wantProblem(t, a, 415, codeNotAPhoto)
	if d := a.str("detail"); !strings.Contains(d, "damaged") || !strings.Contains(d, "again") {
		t.Errorf("detail %q: want it to say the photo is damaged and to send it again", d)
	}
	if n := fake.calls.Load(); n != 0 {
		t.Errorf("the recogniser read the damaged photo %d times", n)
	}
	if a := postPhoto(t, ts.URL+"/v1/recognitions", photo, nil, ""); a.status != 200 {
		t.Errorf("the whole photo: %d %s", a.status, a.body)
	}
}
