package vendorcheck

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Runner runs the plans of the vendor collections against one mock.
type Runner struct {
	Newman          *Newman
	Mock            *Mock
	VendorDir       string      // the vendor directory (../shared/vendor)
	Credentials     Credentials // the mock's default user
	WebhookEndpoint string      // where the webhooks collection's subscription delivers
}

// Result is what a plan's stages did together.
type Result struct {
	Label      string
	Assertions []Assertion
	Variables  map[string]string // as the last stage left them
}

// Run runs a plan: it writes patched copies of the collection (variables
// filled, the fixture PDF as the empty file part) for each stage, runs them
// one after the other carrying the collection variables over, and does each
// stage's After step in between. A failed After step stops the plan and is
// returned with what ran so far.
func (r *Runner) Run(ctx context.Context, p Plan) (*Result, error) {
	col, err := LoadCollection(filepath.Join(r.VendorDir, p.File))
	if err != nil {
		return nil, err
	}
	fixture := filepath.Join(r.Newman.Dir, "contract.pdf") // the name the collection's data part gives
	if err := os.WriteFile(fixture, FixturePDF(), 0o600); err != nil {
		return nil, fmt.Errorf("vendorcheck: write fixture: %w", err)
	}
	col.AttachFile(fixture)
	vars := BaseVariables(col, r.Mock.URL, r.Credentials, r.WebhookEndpoint)
	res := &Result{Label: p.Label}
	stem := strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(strings.ToLower(p.Label))
	for _, st := range p.Stages(col) {
		part, err := col.Select(st.Items...)
		if err != nil {
			return res, err
		}
		part.SetVariables(vars)
		run, err := r.Newman.Run(ctx, part, stem+"."+st.Name)
		if err != nil {
			return res, err
		}
		res.Assertions = append(res.Assertions, run.Assertions...)
		for _, name := range part.RequestNames() {
			if !slices.Contains(run.Requests, name) {
				res.Assertions = append(res.Assertions, Assertion{Request: name, Name: "request did not run",
					Message: "newman ran no request of this name", Script: true})
			}
		}
		maps.Copy(vars, run.Variables)
		res.Variables = vars
		if st.After != nil {
			if err := st.After(ctx, r.Mock, vars); err != nil {
				return res, fmt.Errorf("after stage %s of %s: %w", st.Name, p.Label, err)
			}
		}
	}
	return res, nil
}

// Tally counts the pm.test assertions and those that passed.
func (r *Result) Tally() (passed, total int) {
	return (&RunResult{Assertions: r.Assertions}).Tally()
}

// Verdict compares a result with the exceptions list.
type Verdict struct {
	Unexpected []Assertion // failed and not listed
	Excused    []Assertion // failed and listed
	Stale      []Exception // listed for this collection, but passed or never ran
}

// Judge sorts the result's failures into listed and unlisted ones, and finds
// the listed exceptions of this collection that no failure needed.
func Judge(res *Result, exceptions []Exception) Verdict {
	listed := map[ExceptionKey]Exception{}
	for _, e := range exceptions {
		if e.Collection == res.Label {
			listed[e.Key()] = e
		}
	}
	used := map[ExceptionKey]bool{}
	var v Verdict
	for _, a := range res.Assertions {
		if a.Passed {
			continue
		}
		k := ExceptionKey{res.Label, a.Request, a.Name}
		if _, ok := listed[k]; ok {
			used[k] = true
			v.Excused = append(v.Excused, a)
			continue
		}
		v.Unexpected = append(v.Unexpected, a)
	}
	for _, e := range exceptions {
		if e.Collection == res.Label && !used[e.Key()] {
			v.Stale = append(v.Stale, e)
		}
	}
	return v
}

// Redact replaces the values of the secret variables (SecretVariables) in s
// with "[redacted]".
func Redact(s string, vars map[string]string) string {
	for _, k := range SecretVariables {
		if v := vars[k]; len(v) >= 4 {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}
