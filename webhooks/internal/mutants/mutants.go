// Package mutants proves a conformance suite honest: it runs the suite on
// deliberately broken implementations ("mutants"), each in a test process
// of its own, and requires the subtest named after the mutant to fail. The
// suites of webhooks/dedup/deduptest and webhooks/queue/queuetest use it
// in their own tests; it is imported by tests only.
package mutants

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// env names, in a child process, the mutant it runs.
const env = "SIGNKIT_SUITE_MUTANT"

// Running answers the mutant this process runs: "" in the parent test
// process, where TestMutant-style entry points must skip.
func Running() string { return os.Getenv(env) }

// ExpectCaught runs, for each name, the test binary again with only
// entry/<name> selected and Running() answering name, in parallel, and
// fails when that run passes or when its subtest <name> did not fail. what
// names the implementation in the failure message ("a store", "a queue").
func ExpectCaught(t *testing.T, entry, what string, names []string) {
	t.Helper()
	if Running() != "" {
		t.Skip("inside a mutant's run")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^"+entry+"$/^"+name+"$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), env+"="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed %s that breaks %s:\n%s", what, name, out)
			}
			if !strings.Contains(string(out), "--- FAIL: "+entry+"/"+name+" ") {
				t.Fatalf("%s did not fail as expected:\n%s", name, out)
			}
		})
	}
}
