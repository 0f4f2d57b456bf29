package api

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrBusy says the queue is full; the client should come back later.
var ErrBusy = errors.New("all workers busy and the queue is full")

// Pool runs heavy work on a fixed number of workers. A request that finds
// every worker busy waits in a bounded queue; one that finds the queue full
// is refused at once, so a burst never piles up goroutines or memory.
type Pool struct {
	admit   chan struct{} // workers + queue places
	workers chan struct{} // worker places
	waiting atomic.Int64
	running atomic.Int64
}

// NewPool makes a pool of n workers with room for queue more waiting.
func NewPool(n, queue int) *Pool {
	return &Pool{admit: make(chan struct{}, n+queue), workers: make(chan struct{}, n)}
}

// Do runs fn on a worker. It returns ErrBusy when the queue is full and
// ctx's error when the deadline passes first. Work that has started keeps
// its worker until it ends even when the caller gave up, so the pool never
// runs more than n at once.
func (p *Pool) Do(ctx context.Context, fn func() error) error {
	select {
	case p.admit <- struct{}{}:
	default:
		return ErrBusy
	}
	p.waiting.Add(1)
	select {
	case p.workers <- struct{}{}:
		p.waiting.Add(-1)
	case <-ctx.Done():
		p.waiting.Add(-1)
		<-p.admit
		return ctx.Err()
	}
	done := make(chan error, 1)
	p.running.Add(1)
	go func() {
		var err error
		defer func() {
			// A panic in one photo must not take the other requests down.
			if r := recover(); r != nil {
				err = fmt.Errorf("panic in worker: %v", r)
			}
			p.running.Add(-1)
			<-p.workers
			<-p.admit
			done <- err
		}()
		err = fn()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Waiting and Running report the pool's load for metrics.
func (p *Pool) Waiting() int { return int(p.waiting.Load()) }
func (p *Pool) Running() int { return int(p.running.Load()) }
