package vendorcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNewman is wrapped by every error of a newman run that produced no
// report.
var ErrNewman = errors.New("vendorcheck: newman run failed")

// Newman runs the newman command-line runner.
type Newman struct {
	Bin string // path of the newman binary
	Dir string // where collections and reports of the runs are written
}

// Assertion is one pm.test of a run, or a script or request error (Name is
// then the place it happened, such as "prerequest-script").
type Assertion struct {
	Request string // the request's name
	Name    string // the pm.test name
	Passed  bool
	Message string // why it failed
	Script  bool   // a script or request error, not a pm.test
}

// RunResult is what one newman run did.
type RunResult struct {
	Assertions []Assertion
	Requests   []string          // the requests that ran, in order
	Variables  map[string]string // the collection variables at the end of the run
}

// Tally counts the pm.test assertions of the result and those that passed.
func (r *RunResult) Tally() (passed, total int) {
	for _, a := range r.Assertions {
		if a.Script {
			continue
		}
		total++
		if a.Passed {
			passed++
		}
	}
	return passed, total
}

// Run runs the collection once under the label stage (used in file names)
// and reads newman's JSON report and exported collection. A run whose
// assertions fail is not an error; a run that leaves no report is.
func (n *Newman) Run(ctx context.Context, col *Collection, stage string) (*RunResult, error) {
	cp, err := col.clone()
	if err != nil {
		return nil, err
	}
	cp.AddVariableExport()
	b, err := cp.Marshal()
	if err != nil {
		return nil, err
	}
	in := filepath.Join(n.Dir, stage+".collection.json")
	report := filepath.Join(n.Dir, stage+".report.json")
	export := filepath.Join(n.Dir, stage+".globals.json")
	if err := os.WriteFile(in, b, 0o600); err != nil {
		return nil, fmt.Errorf("%w: write collection: %w", ErrNewman, err)
	}
	cmd := exec.CommandContext(ctx, n.Bin, "run", in,
		"--reporters", "json", "--reporter-json-export", report,
		"--export-globals", export,
		"--timeout-request", "20000", "--disable-unicode", "--color", "off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Dir = n.Dir
	runErr := cmd.Run() // exit status 1 when an assertion fails: the report says which
	rb, err := os.ReadFile(report)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w (%v; stderr: %s)", ErrNewman, stage, err, runErr, firstLine(stderr.String()))
	}
	res, err := parseReport(rb)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNewman, stage, err)
	}
	if res.Variables, err = readExport(export); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNewman, stage, err)
	}
	return res, nil
}

// readExport reads the collection variables from the globals newman
// exported (see AddVariableExport).
func readExport(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("exported globals: %w", err)
	}
	var g struct {
		Values []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"values"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("decode exported globals: %w", err)
	}
	vars := map[string]string{}
	for _, v := range g.Values {
		if k, ok := strings.CutPrefix(v.Key, exportPrefix); ok {
			vars[k] = scalarString(v.Value)
		}
	}
	return vars, nil
}

// report is the part of newman's JSON report that Run reads.
type report struct {
	Run struct {
		Executions []struct {
			Item       struct{ Name string } `json:"item"`
			Assertions []struct {
				Assertion string `json:"assertion"`
				Skipped   bool   `json:"skipped"`
				Error     *struct {
					Message string `json:"message"`
				} `json:"error"`
			} `json:"assertions"`
		} `json:"executions"`
		Failures []struct {
			At     string `json:"at"`
			Source struct {
				Name string `json:"name"`
			} `json:"source"`
			Error struct {
				Name    string `json:"name"`
				Test    string `json:"test"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"failures"`
	} `json:"run"`
}

func parseReport(b []byte) (*RunResult, error) {
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("decode newman report: %w", err)
	}
	res := &RunResult{}
	for _, ex := range rep.Run.Executions {
		res.Requests = append(res.Requests, ex.Item.Name)
		for _, a := range ex.Assertions {
			if a.Skipped {
				continue
			}
			as := Assertion{Request: ex.Item.Name, Name: a.Assertion, Passed: a.Error == nil}
			if a.Error != nil {
				as.Message = a.Error.Message
			}
			res.Assertions = append(res.Assertions, as)
		}
	}
	// Failures outside pm.test (a script that threw, a request that could
	// not be sent) appear only in the failure list.
	for _, f := range rep.Run.Failures {
		if f.Error.Test != "" || f.Error.Name == "AssertionError" {
			continue
		}
		at := f.At
		if i := strings.LastIndex(at, " in "); i >= 0 {
			at = at[i+len(" in "):]
		}
		res.Assertions = append(res.Assertions, Assertion{Request: f.Source.Name, Name: at,
			Message: f.Error.Name + ": " + f.Error.Message, Script: true})
	}
	return res, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
