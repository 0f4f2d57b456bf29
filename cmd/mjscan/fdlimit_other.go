//go:build !unix

package main

// openFileLimit is unknown here: MJSCAN_MAX_CONNS is taken as set.
func openFileLimit() (int, bool) { return 0, false }
