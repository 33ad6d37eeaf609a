package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/examples/internal/browser"
	"github.com/signkit/signkit-go/mockserver"
)

// errCrash is the demo's simulated crash.
var errCrash = errors.New("simulated crash")

// demo shows the poller on the embedded mock server: three case files
// complete, the poller stops after handling two (a crash: the state file
// holds what it saved), a restart handles the third, three more complete,
// a poll handles them, and a last poll finds nothing new. Every case file
// must have been handled exactly once.
func demo(ctx context.Context, client *signkit.Client, o options, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	path := o.state
	if path == "" {
		dir, err := os.MkdirTemp("", "signkit-poller-")
		if err != nil {
			return fmt.Errorf("state directory: %w", err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "state.json")
	}
	results, err := createCaseFiles(ctx, client, 6)
	if err != nil {
		return err
	}
	h := &demoHandler{counts: map[int64]int{}, budget: -1, w: stdout}
	p := &Poller{CaseFiles: client.CaseFiles, StatePath: path, PerPage: o.perPage, Handle: h.handle}
	if p.PerPage == 0 {
		p.PerPage = 2
	}
	poll := func(label string, crashAfter int) error {
		h.budget = crashAfter
		fmt.Fprintf(stdout, "%s:\n", label)
		n, err := p.Poll(ctx)
		if errors.Is(err, errCrash) {
			fmt.Fprintf(stdout, "  stopped after %d (simulated crash); the state file keeps the watermark\n", n)
			return nil
		}
		if err == nil {
			fmt.Fprintf(stdout, "  %d handled\n", n)
		}
		return err
	}
	if err := completeBatch(ctx, results[:3], stdout); err != nil {
		return err
	}
	if err := poll("poll 1", 2); err != nil {
		return err
	}
	if err := poll("poll 2, after a restart", -1); err != nil {
		return err
	}
	if err := completeBatch(ctx, results[3:], stdout); err != nil {
		return err
	}
	if err := poll("poll 3", -1); err != nil {
		return err
	}
	if err := poll("poll 4", -1); err != nil {
		return err
	}
	return checkOnce(results, h.counts, stdout)
}

// demoHandler counts the case files it handles and crashes, as it were,
// once it has handled budget of them (-1: never).
type demoHandler struct {
	counts map[int64]int
	budget int
	w      io.Writer
}

func (h *demoHandler) handle(_ context.Context, d casefiles.Details) error {
	if h.budget == 0 {
		return errCrash
	}
	h.budget--
	h.counts[d.ID]++
	fmt.Fprintf(h.w, "  handled case file %d %q, completed %s\n", d.ID, d.Title, d.Completed.UTC().Format(time.TimeOnly))
	return nil
}

// createCaseFiles creates n one-signer case files and waits for them.
func createCaseFiles(ctx context.Context, client *signkit.Client, n int) ([]*casefiles.Result, error) {
	jobs := make([]*casefiles.Job, n)
	for i := range jobs {
		title := fmt.Sprintf("Agreement %d", i+1)
		job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: title,
			Signers:   []casefiles.Signer{{Name: "Ann Signer", Email: fmt.Sprintf("ann%d@example.com", i+1)}},
			Documents: []casefiles.Document{{Name: "agreement.pdf", Title: title}},
		}, casefiles.BytesUpload("agreement.pdf", mockserver.SamplePDF(title)))
		if err != nil {
			return nil, fmt.Errorf("create %q: %w", title, err)
		}
		jobs[i] = job
	}
	results := make([]*casefiles.Result, n)
	for i, job := range jobs {
		res, err := client.CaseFiles.Wait(ctx, job)
		if err != nil {
			return nil, fmt.Errorf("wait for case file %d: %w", i+1, err)
		}
		results[i] = res
	}
	return results, nil
}

// completeBatch signs the case files through their signing pages, then
// waits for the next second: the poller reads only whole seconds that
// have passed, so that no case file can still join them.
func completeBatch(ctx context.Context, results []*casefiles.Result, stdout io.Writer) error {
	var b browser.Browser
	for _, res := range results {
		if len(res.SigningLinks) == 0 {
			return fmt.Errorf("case file %d has no signing link", res.CaseFileID)
		}
		if _, err := b.Sign(ctx, res.SigningLinks[0].URL); err != nil {
			return fmt.Errorf("sign case file %d: %w", res.CaseFileID, err)
		}
	}
	fmt.Fprintf(stdout, "%d case files completed\n", len(results))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Until(time.Now().Truncate(time.Second).Add(time.Second))):
		return nil
	}
}

// checkOnce verifies that every case file was handled exactly once.
func checkOnce(results []*casefiles.Result, counts map[int64]int, stdout io.Writer) error {
	for _, res := range results {
		if n := counts[res.CaseFileID]; n != 1 {
			return fmt.Errorf("case file %d was handled %d times, want once", res.CaseFileID, n)
		}
	}
	if len(counts) != len(results) {
		return fmt.Errorf("%d case files handled, want %d", len(counts), len(results))
	}
	fmt.Fprintf(stdout, "every one of the %d completed case files was handled exactly once\n", len(results))
	return nil
}
