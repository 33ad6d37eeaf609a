//go:build !race

package redisqueue_test

// raceEnabled: the tests run with the race detector, and so does the chaos
// receiver they build.
const raceEnabled = false
