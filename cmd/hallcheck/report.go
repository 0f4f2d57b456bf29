package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// renderReport writes the run as Markdown: the command, the checks with
// what each found wrong, and the scaling measure when it was taken.
func renderReport(o options, command, run string, took time.Duration, ak *acks, verdicts []*verdict, scaling []scaleResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## The last run\n\n")
	fmt.Fprintf(&b, "Written by `cmd/hallcheck` (`make hall`); the run of %s (run id %s), on %d cores, load average %s at the end:\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), run, runtime.NumCPU(), loadavg())
	fmt.Fprintf(&b, "    %s\n\n", command)
	fmt.Fprintf(&b, "Three `mjscan serve` replicas on one throwaway PostgreSQL (scripts/postgres-test.sh), behind Debian's nginx with deploy/nginx.conf "+
		"(only its addresses changed, and an `%s` header added so the harness knows which replica answered). "+
		"%d tables, each from its own loopback address (nginx's limits are per client), for %s (the load ran %.1fs: it goes on until the rolling restart is done): "+
		"each round uploads a photo with an Idempotency-Key (every fourth sent twice), scores a hand, records a hand in the table's game and writes a referee record about it, "+
		"retrying 502/503/504/429 with the same key. A quarter in, one replica gets SIGKILL and is started again; from half way all three are restarted in turn with SIGTERM.\n\n",
		upstreamHeader, o.clients, o.duration, took.Seconds())
	fmt.Fprintf(&b, "Acknowledged: %d uploads, %d games, %d hands, %d referee records.\n\n", ak.uploads, len(ak.games), countHands(ak), len(ak.records))

	fmt.Fprintf(&b, "### Checks\n\n| check | result | what was checked |\n|---|---|---|\n")
	for _, v := range verdicts {
		res := "passed"
		if len(v.failures) > 0 {
			res = fmt.Sprintf("**FAILED** (%d)", len(v.failures))
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", v.name, res, strings.ReplaceAll(v.summary, "|", "/"))
	}
	for _, v := range verdicts {
		if len(v.failures) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n#### %s: what was wrong\n\n", v.name)
		for i, f := range v.failures {
			if i == 25 {
				fmt.Fprintf(&b, "- … and %d more\n", len(v.failures)-i)
				break
			}
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}

	for _, v := range verdicts {
		if len(v.notes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n#### %s: what was seen\n\n", v.name)
		for i, n := range v.notes {
			if i == 40 {
				fmt.Fprintf(&b, "- … and %d more\n", len(v.notes)-i)
				break
			}
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}

	if len(scaling) > 0 {
		fmt.Fprintf(&b, "\n### Scaling, 1 → 3 replicas\n\n")
		fmt.Fprintf(&b, "POST /v1/recognitions through nginx, %d clients for %s per round, each waiting for its answer (100 ms pause after a 429); "+
			"latency of the 200 answers, queue wait included. The replicas run with the default settings (workers = cores, so 2 each) on the same %d cores, "+
			"which other work shares: three processes cannot read more photos a second than the cores allow. The point of the replicas here is correctness, not speed.\n\n",
			scaling[0].clients, o.scale, runtime.NumCPU())
		fmt.Fprintf(&b, "| replicas | recognitions/s | 200 | 429 | other | p50 | p95 | photos read per replica | load average before → after |\n|---|---|---|---|---|---|---|---|---|\n")
		for _, s := range scaling {
			other := "0"
			if len(s.other) > 0 {
				other = fmt.Sprint(s.other)
			}
			fmt.Fprintf(&b, "| %d | %.1f | %d | %d | %s | %s | %s | %s | %s → %s |\n", s.replicas, s.perSecond(), s.ok, s.busy, other,
				s.p50.Round(time.Millisecond), s.p95.Round(time.Millisecond), strings.Join(s.perReplica, ", "), s.loadBefore, s.loadAfter)
		}
	}
	return b.String()
}
