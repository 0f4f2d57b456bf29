package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// scaleResult is one round of the scaling measure: recognitions through
// nginx with n replicas behind it.
type scaleResult struct {
	replicas   int
	clients    int
	took       time.Duration
	ok         int
	busy       int // 429
	other      map[int]int
	p50, p95   time.Duration
	perReplica []string
	loadBefore string
	loadAfter  string
}

func (r scaleResult) perSecond() float64 { return float64(r.ok) / r.took.Seconds() }

// measureScaling runs the same recognition load through nginx with one
// replica behind it, then with three (nginx is started anew with each
// upstream; the replicas keep running). Each client sends a photo, waits
// for the answer, and after a 429 waits 100ms before the next.
func measureScaling(ctx context.Context, o options, tmp, shipped string, reps []*replica, photos [][]byte, ngx **nginx) ([]scaleResult, error) {
	listen := fmt.Sprintf("127.0.0.1:%d", o.port)
	var out []scaleResult
	for _, n := range []int{1, 3} {
		if *ngx != nil {
			(*ngx).stop()
			*ngx = nil
		}
		conf, err := deriveNginx(shipped, listen, addrs(reps[:n]))
		if err != nil {
			return nil, err
		}
		x, err := startNginx(ctx, filepath.Join(tmp, fmt.Sprintf("nginx-scale-%d", n)), conf, listen)
		if err != nil {
			return nil, err
		}
		*ngx = x
		logf("scaling: %d replica(s) behind nginx, %d clients for %s", n, o.clients, o.scale)
		res, err := recognitionLoad(ctx, o, "http://"+listen, reps, photos)
		if err != nil {
			return nil, err
		}
		res.replicas = n
		out = append(out, res)
	}
	return out, nil
}

func recognitionLoad(ctx context.Context, o options, base string, reps []*replica, photos [][]byte) (scaleResult, error) {
	res := scaleResult{clients: o.clients, other: map[int]int{}, loadBefore: loadavg()}
	before, err := counts(ctx, reps)
	if err != nil {
		return res, err
	}
	var mu sync.Mutex
	var lat []time.Duration
	lctx, cancel := context.WithTimeout(ctx, o.scale)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < o.clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := newClient(i, base, newTally(start))
			for k := 0; lctx.Err() == nil; k++ {
				t0 := time.Now()
				a := c.once(lctx, base, request{method: http.MethodPost, path: "/v1/recognitions", body: photoBody(photos[(i+k)%len(photos)])})
				d := time.Since(t0)
				if lctx.Err() != nil {
					return // cut by the end of the round: not counted
				}
				mu.Lock()
				switch a.status {
				case http.StatusOK:
					res.ok++
					lat = append(lat, d)
				case http.StatusTooManyRequests:
					res.busy++
				default:
					res.other[a.status]++
				}
				mu.Unlock()
				if a.status != http.StatusOK {
					time.Sleep(100 * time.Millisecond)
				}
			}
		}(i)
	}
	wg.Wait()
	res.took = time.Since(start)
	res.loadAfter = loadavg()
	after, err := counts(ctx, reps)
	if err != nil {
		return res, err
	}
	for _, r := range reps {
		res.perReplica = append(res.perReplica, fmt.Sprintf("%s %d", r.name, after[r.name]-before[r.name]))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		res.p50 = lat[len(lat)/2]
		res.p95 = lat[len(lat)*95/100]
	}
	return res, nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
