package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"mjscan/internal/fault"
)

// problemMakers are the files that may still build a Problem in place:
// problem.go and faults.go themselves, and the HTTP middleware, whose
// answers are about HTTP rather than the game (a reused Idempotency-Key,
// a full intake, a slow upload, a deadline, a JSON content type, a
// panic).
var problemMakers = map[string]bool{
	"problem.go": true, "faults.go": true, "idempotency.go": true, "intake.go": true, "server.go": true,
}

// TestStatusesDecidedInFaults: the routes say what kind of failure an
// error is (internal/fault) and api/faults.go alone turns the kind into a
// status; no route file builds problem(status, …) itself.
func TestStatusesDecidedInFaults(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || problemMakers[name] {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "problem" {
					t.Errorf("%s: problem(…) builds an answer in place: return a fault error and let api/faults.go decide its status", fset.Position(call.Pos()))
				}
			}
			return true
		})
	}
}

// TestKindStatuses: every kind has its status, and a kind that says
// trying again will not help (Exhausted) answers 429 without the
// Retry-After that Busy carries.
func TestKindStatuses(t *testing.T) {
	want := map[fault.Kind]int{
		fault.Internal: 500, fault.Invalid: 400, fault.Unsupported: 415, fault.Unprocessable: 422, fault.NotFound: 404,
		fault.Conflict: 409, fault.Unauthorised: 401, fault.Forbidden: 403, fault.TooLarge: 413, fault.Busy: 429,
		fault.Timeout: 503, fault.Cancelled: 499, fault.Unavailable: 503, fault.Upstream: 502, fault.Exhausted: 429,
	}
	for k := fault.Internal; k <= fault.Exhausted; k++ {
		if got := statusOf(k); got != want[k] {
			t.Errorf("%v answers %d, want %d", k, got, want[k])
		}
	}
	s, err := New(DefaultConfig(), Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	c := s.echo.NewContext(httptest.NewRequest(http.MethodPost, "/v1/tables/t/score-now", nil), httptest.NewRecorder())
	if p := s.faultProblem(c, fault.New(fault.Exhausted, codeTooManyProposals, "x")); p.Status != http.StatusTooManyRequests || p.RetryAfter != 0 {
		t.Errorf("exhausted: %d, Retry-After %d", p.Status, p.RetryAfter)
	}
	if p := s.faultProblem(c, fault.New(fault.Busy, "", "x")); p.RetryAfter == 0 {
		t.Error("busy without Retry-After")
	}
	if p := s.faultProblem(c, fault.New(fault.Conflict, codeTampered, "x").WithTitle("The tile set cannot be trusted")); p.Title != "The tile set cannot be trusted" {
		t.Errorf("title %q", p.Title)
	}
	if p := s.faultProblem(c, fault.New(fault.Conflict, codeTampered, "x")); p.Title != "The record cannot be trusted" {
		t.Errorf("title %q", p.Title)
	}
}
