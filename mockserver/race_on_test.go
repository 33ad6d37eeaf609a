//go:build race

package mockserver

// raceDetector says that the tests run with -race, whose instrumented
// frames are larger.
const raceDetector = true
