package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

// steps prints one line per step: its number, name, duration and outcome.
type steps struct {
	w     io.Writer
	n     int
	start time.Time
}

func newSteps(w io.Writer) *steps { return &steps{w: w, start: time.Now()} }

// do runs fn as the next step. fn answers what the step achieved.
func (s *steps) do(name string, fn func() (string, error)) error {
	s.n++
	t0 := time.Now()
	detail, err := fn()
	d := roundDuration(time.Since(t0))
	if err != nil {
		fmt.Fprintf(s.w, "%2d. %-24s %8s  FAILED\n", s.n, name, d)
		return fmt.Errorf("step %d, %s: %w", s.n, name, err)
	}
	fmt.Fprintf(s.w, "%2d. %-24s %8s  %s\n", s.n, name, d, detail)
	return nil
}

// skip prints the next step as skipped, with the reason.
func (s *steps) skip(name, why string) {
	s.n++
	fmt.Fprintf(s.w, "%2d. %-24s %8s  skipped: %s\n", s.n, name, "-", why)
}

// total answers the time since the first step.
func (s *steps) total() time.Duration { return roundDuration(time.Since(s.start)) }

func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// step is one step of the quickstart: its name, and either fn, or the
// reason why it is skipped here.
type step struct {
	name string
	fn   func(context.Context) (string, error)
	skip string
}

// plan lists the steps for where the quickstart runs.
func (q *quickstart) plan() []step {
	mock := q.env.IsMock()
	mockOnly := func(name string, fn func(context.Context) (string, error), why string) step {
		if mock {
			return step{name: name, fn: fn}
		}
		return step{name: name, skip: why}
	}
	webhook := mock || q.opts.webhookURL != ""
	download := step{name: "download signed PDF", fn: q.download}
	if !mock && q.opts.caseFileID == 0 {
		download = step{name: download.name, skip: "give -casefile ID of a completed case file"}
	}
	cleanup := step{name: "clean up", fn: q.cleanup}
	if q.opts.keep {
		cleanup = step{name: cleanup.name, skip: "-keep"}
	}
	list := []step{
		{name: "create form", fn: q.createForm},
		{name: "publish", fn: q.publish},
		{name: "prefilled link", fn: q.prefill},
		mockOnly("submit public page", q.submit, "mock only: open the prefilled link in a browser to submit"),
		{name: "read submissions", fn: q.readSubmissions},
		{name: "subscribe webhook", fn: q.subscribe},
		mockOnly("sign as primary signer", q.sign, "mock only: on the platform the signer signs in the platform's signing page"),
		mockOnly("wait for completed event", q.waitCompleted, "mock only: needs the signature above"),
		download,
		cleanup,
	}
	if !webhook {
		list[5].fn, list[5].skip = nil, "give -webhook-url, a public https URL that forwards to -listen"
	}
	return list
}

// runSteps runs the plan, stopping at the first failure.
func (q *quickstart) runSteps(ctx context.Context) error {
	for _, st := range q.plan() {
		if st.fn == nil {
			q.steps.skip(st.name, st.skip)
			continue
		}
		if err := q.steps.do(st.name, func() (string, error) { return st.fn(ctx) }); err != nil {
			return err
		}
	}
	return nil
}
