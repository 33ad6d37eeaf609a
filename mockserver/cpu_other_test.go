//go:build !unix

package mockserver

import "time"

// processCPU answers 0: the benchmarks report no CPU ratio here.
func processCPU() time.Duration { return 0 }
