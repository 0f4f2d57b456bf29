package api

import (
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// HTTPServer is the http.Server to serve Handler with: every phase of a
// connection has its own time limit, and the open connections are capped.
//
//   - Headers must arrive within HeaderTimeout.
//   - The body is read by intake at MinUploadRate, within UploadTimeout;
//     ReadTimeout only backs that up.
//   - The answer must be written RequestTimeout + WriteTimeout after the
//     body arrived (intake sets it); WriteTimeout backs that up.
//   - A keep-alive connection idle for IdleTimeout is closed.
//   - At MaxConns open connections, each new one closes the connection
//     that has been idle longest (a keep-alive one, else one that has sent
//     nothing yet). Idle connections, however many, never lock new clients
//     out; only MaxConns requests at work at once can.
func (s *Server) HTTPServer(errorLog *log.Logger) *http.Server {
	c := s.cfg
	lim := newConnLimiter(c.MaxConns)
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: c.HeaderTimeout,
		ReadTimeout:       c.HeaderTimeout + c.UploadTimeout,
		WriteTimeout:      c.HeaderTimeout + c.UploadTimeout + c.RequestTimeout + c.WriteTimeout,
		IdleTimeout:       c.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnState:         lim.track,
		ErrorLog:          errorLog,
	}
}

// connLimiter caps the open connections by closing idle ones.
type connLimiter struct {
	max   int
	mu    sync.Mutex
	conns map[net.Conn]*connInfo
}

type connInfo struct {
	state http.ConnState
	since time.Time // when it last became idle (or opened)
}

func newConnLimiter(max int) *connLimiter {
	return &connLimiter{max: max, conns: map[net.Conn]*connInfo{}}
}

// track follows each connection's state (http.Server.ConnState).
func (l *connLimiter) track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateNew:
		l.conns[c] = &connInfo{state: st, since: time.Now()}
		if len(l.conns) > l.max {
			victim := l.idlest(c)
			if victim == nil {
				// Every other connection is at work: this one waits for
				// nothing and is refused.
				victim = c
			}
			delete(l.conns, victim)
			victim.Close()
		}
	case http.StateActive:
		if ci, ok := l.conns[c]; ok {
			ci.state = st
		}
	case http.StateIdle:
		if ci, ok := l.conns[c]; ok {
			ci.state, ci.since = st, time.Now()
		}
	case http.StateHijacked, http.StateClosed:
		delete(l.conns, c)
	}
}

// idlest is the connection, other than except, idle longest: keep-alive
// connections first, then new ones that have not sent a request yet.
func (l *connLimiter) idlest(except net.Conn) net.Conn {
	var best net.Conn
	var bestInfo *connInfo
	for c, ci := range l.conns {
		if c == except || ci.state == http.StateActive {
			continue
		}
		if best == nil || rank(ci) < rank(bestInfo) || (rank(ci) == rank(bestInfo) && ci.since.Before(bestInfo.since)) {
			best, bestInfo = c, ci
		}
	}
	return best
}

func rank(ci *connInfo) int {
	if ci.state == http.StateIdle {
		return 0
	}
	return 1
}
