package api

import (
	"context"
	"encoding"
	"encoding/json"
	"net/http"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"mjscan/referee"
	"mjscan/scoring"
	"mjscan/tournament"
)

// requestBodies are the types the handlers decode each JSON request body
// into; the document must describe each of them field for field.
var requestBodies = map[string]any{
	"POST /v1/scores":                            scoring.Request{},
	"POST /v1/verify":                            VerifyRequest{},
	"POST /v1/recognitions/hand":                 GroupsRequest{},
	"POST /v1/games":                             newGame{},
	"POST /v1/games/{id}/hands":                  tournament.Play{},
	"POST /v1/games/{id}/hands/{number}/correct": tournament.Play{},
	"POST /v1/records":                           referee.Record{},
	"POST /v1/records/{id}/overturn":             referee.Record{},
	"POST /v1/records/{id}/confirm":              confirmation{},
	"POST /v1/tournaments":                       newTournament{},
	"POST /v1/tournaments/{id}/games":            addGame{},
	"POST /v1/tournaments/{id}/penalties":        tournament.Penalty{},
	"POST /v1/tables":                            tableSetup{},
	"POST /v1/tables/{table}/score-now":          scoreNow{},
}

// bodilessRoutes take no body: the document gives them none.
var bodilessRoutes = map[string]bool{
	"POST /v1/games/{id}/end":           true,
	"POST /v1/tables/{table}/calibrate": true,
}

// TestOpenAPIRequestBodies (#18): every request body was documented as
// {"type":"object"}, so its shape had to be learned from error messages.
// Each JSON body is now described, and checked against its handler both
// ways: every field of the Go type the handler decodes into is
// documented (nested types too), every documented property is a field of
// it, and, over HTTP, every documented top-level property is accepted by
// the handler's strict decoder (no `has no field`). Every POST route is
// one of these, takes no body, or takes a form.
func TestOpenAPIRequestBodies(t *testing.T) {
	s := startTourService(t, referee.Config{SQLitePath: filepath.Join(t.TempDir(), "r.db")}, fixedHandReader{})
	tourCameraTables(t, s)
	s.newGameAt("Q1", "table 1", "msmc-2016")
	if a := s.call("POST", "/v1/records", testRefereeToken, recordBody); a.status != 201 {
		t.Fatalf("record: %d %s", a.status, a.body)
	}
	if a := s.call("POST", "/v1/tournaments", testOrganizerToken, `{"id":"T","entrants":["Aiko","Ben","Chloe","Dev"]}`); a.status != 201 {
		t.Fatalf("tournament: %d %s", a.status, a.body)
	}
	a := s.call("GET", "/openapi.json", "", "")
	doc := a.json
	paths := doc["paths"].(map[string]any)

	// Every POST route served is accounted for.
	for _, r := range servedRoutesOf(t) {
		if r.method != http.MethodPost {
			continue
		}
		key := r.method + " " + r.path
		_, typed := requestBodies[key]
		if !typed && !bodilessRoutes[key] && !formRoutes[r.echoPath] {
			t.Errorf("%s takes a body that the test does not check against the document: add its type to requestBodies", key)
		}
	}
	for path, ops := range paths {
		for method, op := range ops.(map[string]any) {
			key := strings.ToUpper(method) + " " + path
			body, hasBody := op.(map[string]any)["requestBody"].(map[string]any)
			if bodilessRoutes[key] && hasBody {
				t.Errorf("%s takes no body, but the document gives it one", key)
			}
			if !hasBody {
				if _, typed := requestBodies[key]; typed {
					t.Errorf("%s: no requestBody documented", key)
				}
				continue
			}
			content := body["content"].(map[string]any)
			js, isJSON := content["application/json"].(map[string]any)
			if !isJSON {
				continue // a form: its parts are documented with it
			}
			v, typed := requestBodies[key]
			if !typed {
				t.Errorf("%s documents a JSON body the test does not know: add its type to requestBodies", key)
				continue
			}
			schema := resolve(t, doc, js["schema"].(map[string]any))
			if props, _ := schema["properties"].(map[string]any); len(props) == 0 {
				t.Errorf("%s: the body is documented without its properties", key)
			}
			compareSchema(t, doc, key, schema, reflect.TypeOf(v), map[reflect.Type]bool{})
		}
	}

	// Over HTTP: each documented property of a strictly decoded body is
	// one its handler knows.
	strict := map[string]string{
		"POST /v1/games": testOrganizerToken, "POST /v1/games/{id}/hands": testRefereeToken, "POST /v1/games/{id}/hands/{number}/correct": testRefereeToken,
		"POST /v1/records": testRefereeToken, "POST /v1/records/{id}/overturn": testRefereeToken,
		"POST /v1/records/{id}/confirm": testRefereeToken, "POST /v1/tournaments": testOrganizerToken,
		"POST /v1/tournaments/{id}/games": testOrganizerToken, "POST /v1/tournaments/{id}/penalties": testOrganizerToken,
		"POST /v1/tables": testOrganizerToken, "POST /v1/tables/{table}/score-now": testRefereeToken,
	}
	fill := strings.NewReplacer("{id}/overturn", "1/overturn", "{id}/confirm", "1/confirm", "games/{id}", "games/Q1", "{number}", "1", "tournaments/{id}", "tournaments/T", "{table}", "table%201")
	for key, token := range strict {
		method, path, _ := strings.Cut(key, " ")
		op := paths[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
		schema := resolve(t, doc, op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
		// The handler's strict decoder is reached: a field that is none
		// is refused by name.
		if a := s.call(method, fill.Replace(path), token, `{"zz_no_such_field":1}`); !strings.Contains(a.str("detail"), `has no field "zz_no_such_field"`) {
			t.Errorf("%s: an unknown field is not refused by its decoder: %d %s", key, a.status, a.body)
		}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			sample, _ := json.Marshal(map[string]any{name: sampleOf(resolve(t, doc, p.(map[string]any)))})
			a := s.call(method, fill.Replace(path), token, string(sample))
			if strings.Contains(a.str("detail"), "has no field") {
				t.Errorf("%s documents %q, but the handler refuses it: %s", key, name, a.str("detail"))
			}
		}
	}
}

// servedRoutes are the routes a service with the tournament routes
// serves, with their paths as the document writes them and as echo does.
func servedRoutesOf(t *testing.T) []struct{ method, path, echoPath string } {
	srv, _ := newTestServer(t, nil, nil)
	store, err := referee.Open(context.Background(), referee.Config{SQLitePath: filepath.Join(t.TempDir(), "routes.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := srv.MountTournament(TournamentConfig{RefereeToken: testRefereeToken, OrganizerToken: testOrganizerToken}, store); err != nil {
		t.Fatal(err)
	}
	var out []struct{ method, path, echoPath string }
	for _, r := range srv.echo.Routes() {
		if strings.HasPrefix(r.Method, "echo_") {
			continue
		}
		segs := strings.Split(r.Path, "/")
		for i, seg := range segs {
			if strings.HasPrefix(seg, ":") {
				segs[i] = "{" + seg[1:] + "}"
			}
		}
		out = append(out, struct{ method, path, echoPath string }{r.Method, strings.Join(segs, "/"), r.Path})
	}
	return out
}

// resolve follows a schema's $ref (a JSON pointer into the document),
// also when it is the one schema of an allOf (how OpenAPI 3.0 gives a
// referenced schema a description of its own).
func resolve(t *testing.T, doc map[string]any, schema map[string]any) map[string]any {
	t.Helper()
	for {
		if all, ok := schema["allOf"].([]any); ok && len(all) == 1 {
			schema = all[0].(map[string]any)
		}
		ref, ok := schema["$ref"].(string)
		if !ok {
			return schema
		}
		var node any = doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			node = node.(map[string]any)[part]
		}
		next, ok := node.(map[string]any)
		if !ok {
			t.Fatalf("dangling $ref %s", ref)
		}
		schema = next
	}
}

var (
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
	jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	timeType        = reflect.TypeOf(time.Time{})
)

// compareSchema checks a Go type against its schema both ways: each JSON
// field is a documented property and each property a field, down through
// nested structs and lists. Types that decode themselves (tiles, times,
// raw JSON) and maps are leaves.
func compareSchema(t *testing.T, doc map[string]any, where string, schema map[string]any, typ reflect.Type, seen map[reflect.Type]bool) {
	t.Helper()
	schema = resolve(t, doc, schema)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ == timeType || reflect.PointerTo(typ).Implements(textUnmarshaler) || reflect.PointerTo(typ).Implements(jsonUnmarshaler) {
		return
	}
	switch typ.Kind() {
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() == reflect.Uint8 {
			return // bytes: a base64 string
		}
		items, ok := schema["items"].(map[string]any)
		if !ok {
			t.Errorf("%s: a list of %s documented without its items", where, typ.Elem())
			return
		}
		compareSchema(t, doc, where+"[]", items, typ.Elem(), seen)
	case reflect.Struct:
		if seen[typ] {
			return // a hand request's players are hand requests
		}
		seen[typ] = true
		defer delete(seen, typ)
		props, _ := schema["properties"].(map[string]any)
		fields := jsonFields(typ)
		var names []string
		for name := range fields {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p, ok := props[name].(map[string]any)
			if !ok {
				t.Errorf("%s: field %q of %s is not documented", where, name, typ)
				continue
			}
			compareSchema(t, doc, where+"."+name, p, fields[name], seen)
		}
		for name := range props {
			if _, ok := fields[name]; !ok {
				t.Errorf("%s: %q is documented but %s has no such field", where, name, typ)
			}
		}
	}
}

// jsonFields are a struct's fields by JSON name, embedded structs'
// included, as encoding/json sees them.
func jsonFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = ft
	}
	return out
}

// sampleOf is a value of a schema's type.
func sampleOf(schema map[string]any) any {
	switch schema["type"] {
	case "string":
		if e, ok := schema["enum"].([]any); ok && len(e) > 0 {
			return e[0]
		}
		return "x"
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	}
	return map[string]any{}
}
