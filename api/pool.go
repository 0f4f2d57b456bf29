package api

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrBusy says the queue is full; the client should come back later.
var ErrBusy = errors.New("all workers busy and the queue is full")

// Pool bounds the heavy work. A request takes a place (Admit) when it
// arrives, before its body is read: one of workers + queue places, or
// ErrBusy at once, so a burst never piles up goroutines or memory. With a
// place it runs its work (Ticket.Run) on one of the workers, waiting in the
// queue while they are all busy. The work runs in the request's own
// goroutine: when Run returns the work has ended, so nothing it writes can
// race with the answer, and a request that ends takes its work with it.
type Pool struct {
	admit   chan struct{} // workers + queue places
	workers chan struct{} // worker slots
	waiting atomic.Int64
	running atomic.Int64
}

// NewPool makes a pool of n workers with room for queue more waiting.
func NewPool(n, queue int) *Pool {
	return &Pool{admit: make(chan struct{}, n+queue), workers: make(chan struct{}, n)}
}

// Ticket is one request's place in the pool. It belongs to the request's
// goroutine: Run and Leave are not called from others.
type Ticket struct {
	p       *Pool
	left    bool
	working bool
}

// Admit takes a place for one request, or answers ErrBusy when every place
// is taken. The caller Leaves when the request ends.
func (p *Pool) Admit() (*Ticket, error) {
	select {
	case p.admit <- struct{}{}:
		return &Ticket{p: p}, nil
	default:
		return nil, ErrBusy
	}
}

// Leave gives the place back; calling it again does nothing.
func (t *Ticket) Leave() {
	if t == nil || t.left {
		return
	}
	t.left = true
	<-t.p.admit
}

// Run waits for a worker, runs fn on it in the caller's goroutine and frees
// the worker when fn returns. It answers ctx's error, without running fn,
// when ctx ends before a worker is free. fn itself watches ctx (the
// recogniser checks it between steps); Run never returns while fn runs.
// Within fn, a nested Run runs at once on the same worker.
func (t *Ticket) Run(ctx context.Context, fn func() error) (err error) {
	if t.working {
		return fn()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := t.p
	p.waiting.Add(1)
	select {
	case p.workers <- struct{}{}:
		p.waiting.Add(-1)
	case <-ctx.Done():
		p.waiting.Add(-1)
		return ctx.Err()
	}
	t.working = true
	p.running.Add(1)
	defer func() {
		// A panic in one photo must not take the other requests down, nor
		// keep its worker.
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in worker: %v", r)
		}
		t.working = false
		p.running.Add(-1)
		<-p.workers
	}()
	return fn()
}

// Do is Admit, Run and Leave for one piece of work.
func (p *Pool) Do(ctx context.Context, fn func() error) error {
	t, err := p.Admit()
	if err != nil {
		return err
	}
	defer t.Leave()
	return t.Run(ctx, fn)
}

// Waiting and Running report the pool's load for metrics.
func (p *Pool) Waiting() int { return int(p.waiting.Load()) }
func (p *Pool) Running() int { return int(p.running.Load()) }

// ticketKey carries a request's Ticket in its context.
type ticketKey struct{}

func withTicket(ctx context.Context, t *Ticket) context.Context {
	return context.WithValue(ctx, ticketKey{}, t)
}

func ticketOf(ctx context.Context) *Ticket {
	t, _ := ctx.Value(ticketKey{}).(*Ticket)
	return t
}
