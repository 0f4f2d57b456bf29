// Package deploy holds the deployment files: the nginx configuration, the
// Kubernetes manifests and the Grafana dashboard. Its tests check the
// dashboard against the metrics the service really exposes;
// scripts/deploy-check.sh checks the rest (make deploy-check).
package deploy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"mjscan/api"
)

type dashboard struct {
	Title      string `json:"title"`
	UID        string `json:"uid"`
	Templating struct {
		List []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"list"`
	} `json:"templating"`
	Panels []struct {
		ID         int    `json:"id"`
		Title      string `json:"title"`
		Datasource struct {
			UID string `json:"uid"`
		} `json:"datasource"`
		GridPos struct{ X, Y, W, H int } `json:"gridPos"`
		Targets []struct {
			Expr  string `json:"expr"`
			RefID string `json:"refId"`
		} `json:"targets"`
	} `json:"panels"`
}

// exposed is what a service's metrics page says: each family's type and
// the label names its series carry.
type exposed struct {
	types  map[string]string
	labels map[string]map[string]bool
}

func scrapeService(t *testing.T) exposed {
	t.Helper()
	cfg := api.DefaultConfig()
	cfg.Workers, cfg.Queue, cfg.Instance = 1, 4, "dash-1"
	s, err := api.New(cfg, api.Deps{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// One scored hand and one request make the labelled families appear.
	req := httptest.NewRequest(http.MethodPost, "/v1/scores", strings.NewReader(
		`{"rules":"riichi","hand":"234m345p456s678s55p","win_tile":"8s","tsumo":true,"seat_wind":"S","round_wind":"E"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("scoring a hand: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	e := exposed{types: map[string]string{}, labels: map[string]map[string]bool{}}
	sample := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? `)
	label := regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="`)
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			e.types[f[2]] = f[3]
			continue
		}
		m := sample.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if e.labels[m[1]] == nil {
			e.labels[m[1]] = map[string]bool{}
		}
		for _, l := range label.FindAllStringSubmatch(m[2], -1) {
			e.labels[m[1]][l[1]] = true
		}
	}
	return e
}

// family is the metric family a series name in a query belongs to.
func (e exposed) family(name string) (string, bool) {
	if _, ok := e.types[name]; ok {
		return name, true
	}
	for _, suffix := range []string{"_bucket", "_count", "_sum"} {
		base := strings.TrimSuffix(name, suffix)
		if base != name && (e.types[base] == "histogram" || e.types[base] == "summary") {
			return base, true
		}
	}
	return "", false
}

var (
	seriesInQuery = regexp.MustCompile(`\b((?:mjscan|process|go)_[a-z0-9_]+)(\{[^}]*\})?`)
	matcherLabel  = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)`)
	byClause      = regexp.MustCompile(`\bby\s*\(([^)]*)\)`)
)

// TestDashboardMatchesTheMetrics: every series the Grafana dashboard
// queries is one the service exposes, filtered and grouped by labels it
// carries (the replica label included), and the dashboard shows what an
// operator of several replicas watches.
func TestDashboardMatchesTheMetrics(t *testing.T) {
	raw, err := os.ReadFile("grafana/mjscan.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("grafana/mjscan.json is not a dashboard: %v", err)
	}
	e := scrapeService(t)
	if len(e.types) < 20 {
		t.Fatalf("only %d metric families exposed", len(e.types))
	}
	vars := map[string]bool{}
	for _, v := range d.Templating.List {
		vars[v.Name] = true
	}
	if !vars["datasource"] || !vars["replica"] {
		t.Errorf("the dashboard lacks the datasource or replica variable: %v", vars)
	}
	ids := map[int]bool{}
	var titles []string
	for _, p := range d.Panels {
		titles = append(titles, p.Title)
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q: datasource %q, want the ${datasource} variable", p.Title, p.Datasource.UID)
		}
		if p.GridPos.W < 1 || p.GridPos.X+p.GridPos.W > 24 || p.GridPos.H < 1 {
			t.Errorf("panel %q does not fit the 24-column grid: %+v", p.Title, p.GridPos)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, q := range p.Targets {
			series := seriesInQuery.FindAllStringSubmatch(q.Expr, -1)
			if len(series) == 0 {
				t.Errorf("panel %q: %q names no mjscan, process or go series", p.Title, q.Expr)
			}
			var grouped []map[string]bool
			for _, s := range series {
				fam, ok := e.family(s[1])
				if !ok {
					t.Errorf("panel %q: %s is not exposed by the service", p.Title, s[1])
					continue
				}
				have := e.labels[s[1]]
				if have == nil {
					have = e.labels[fam+"_count"]
				}
				if !strings.Contains(s[2], `replica=~"$replica"`) {
					t.Errorf("panel %q: %s is not filtered by the replica variable", p.Title, s[1])
				}
				for _, l := range matcherLabel.FindAllStringSubmatch(s[2], -1) {
					if !have[l[1]] {
						t.Errorf("panel %q: %s has no label %q (it has %v)", p.Title, s[1], l[1], have)
					}
				}
				grouped = append(grouped, have)
			}
			for _, by := range byClause.FindAllStringSubmatch(q.Expr, -1) {
				for _, l := range strings.Split(by[1], ",") {
					l = strings.TrimSpace(l)
					found := false
					for _, have := range grouped {
						found = found || have[l]
					}
					if !found {
						t.Errorf("panel %q: grouped by %q, a label none of its series has", p.Title, l)
					}
				}
			}
		}
	}
	all := strings.ToLower(strings.Join(titles, " | "))
	for _, want := range []string{"recognitions per second", "latency per step", "queue depth", "429", "database errors"} {
		if !strings.Contains(all, want) {
			t.Errorf("no panel shows %s (panels: %s)", want, all)
		}
	}
}
