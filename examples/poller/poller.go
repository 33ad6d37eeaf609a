package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/examples/internal/atomicfile"
)

// State is the poller's watermark, kept in a small JSON file: every case file
// that completed before the second Completed has been handled, and of those
// that completed in that second, the ones in IDs. A time alone would not do:
// the platform's times are whole seconds, several case files can complete in
// one, and completedAfter is exclusive
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files).
type State struct {
	// Completed is the completion time, unix seconds, of the case file
	// handled last; 0 before the first.
	Completed int64 `json:"completed"`
	// IDs are the case files handled that completed in that second.
	IDs []int64 `json:"ids"`
}

// handled reports whether the case file id, completed at sec, was handled.
func (s *State) handled(id, sec int64) bool {
	return sec < s.Completed || (sec == s.Completed && slices.Contains(s.IDs, id))
}

// add records the case file id, completed at sec, as handled. The poller
// handles case files in the order of their completion, so sec is never
// before s.Completed.
func (s *State) add(id, sec int64) {
	if sec > s.Completed {
		s.Completed, s.IDs = sec, nil
	}
	s.IDs = append(s.IDs, id)
}

// LoadState reads the state file at path; a file that does not exist yet
// is the zero State (nothing handled). A file that is there but unreadable
// is an error rather than a fresh start, which would handle every case file
// again.
func LoadState(path string) (State, error) {
	var s State
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read the state: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("read the state %s: %w", path, err)
	}
	if s.Completed < 0 {
		return s, fmt.Errorf("read the state %s: completed %d is negative", path, s.Completed)
	}
	return s, nil
}

// SaveState writes the state file at path atomically: a crash leaves the
// old state or the new one, never half of one.
func SaveState(path string, s State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("write the state: %w", err)
	}
	_, err = atomicfile.Write(path, func(w io.Writer) (int64, error) {
		n, err := w.Write(append(b, '\n'))
		return int64(n), err
	})
	return err
}

// Lister lists case files: *casefiles.Client's List.
type Lister interface {
	List(ctx context.Context, opts *casefiles.ListOptions) ([]casefiles.Details, error)
}

// Poller hands every completed case file to Handle once, in the order of
// completion, keeping its watermark in the file StatePath.
type Poller struct {
	// CaseFiles lists the case files (client.CaseFiles).
	CaseFiles Lister
	// StatePath is the state file.
	StatePath string
	// Handle does the integration's work on one completed case file. An
	// error stops the poll; the case file is handled again on the next.
	Handle func(ctx context.Context, d casefiles.Details) error
	// PerPage is the page size; 0: 100.
	PerPage int
	// Settle holds back the case files that completed in the last Settle
	// before Now (besides the current second, always held back), so that
	// the window a poll reads is closed: no case file can still join it
	// with a time the watermark has passed. Cover the skew between this
	// machine's clock and the platform's.
	Settle time.Duration
	// Now is the clock the window ends on; nil: time.Now.
	Now func() time.Time
}

// Poll reads the case files completed since the watermark, up to the
// window's end, in pages in ascending order of completion (sort=completed,
// ties by id), hands each one not handled yet to Handle and saves the
// state after each. It answers how many it handled. Each page is read
// from the watermark just saved (completedAfter one second before it,
// since the bound is exclusive), so a case file that leaves the list
// meanwhile (anonymized, say) cannot shift one that follows off a page.
func (p *Poller) Poll(ctx context.Context) (int, error) {
	if p.Handle == nil || p.CaseFiles == nil {
		return 0, errors.New("poller: CaseFiles and Handle must be set")
	}
	st, err := LoadState(p.StatePath)
	if err != nil {
		return 0, err
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	perPage := p.PerPage
	if perPage <= 0 {
		perPage = 100
	}
	completed := casefiles.CaseFileCompleted
	opts := casefiles.ListOptions{Status: &completed, Sort: "completed", PerPage: perPage,
		CompletedBefore: time.Unix(now().Add(-p.Settle).Unix(), 0)}
	handled, page := 0, 1
	var first int64 // the first case file of the page read last
	for {
		anchor := st.Completed
		if anchor >= opts.CompletedBefore.Unix() {
			return handled, nil // the clock went back, or Settle grew: nothing new can be read yet
		}
		opts.CompletedAfter, opts.Page = time.Time{}, page
		if anchor > 0 {
			opts.CompletedAfter = time.Unix(anchor-1, 0)
		}
		items, err := p.CaseFiles.List(ctx, &opts)
		if err != nil {
			return handled, fmt.Errorf("list completed case files: %w", err)
		}
		if page > 1 && len(items) > 0 && items[0].ID == first {
			return handled, fmt.Errorf("list completed case files: page %d repeats page %d", page, page-1)
		}
		if len(items) > 0 {
			first = items[0].ID
		}
		n, err := p.handlePage(ctx, items, &st)
		if handled += n; err != nil {
			return handled, err
		}
		if len(items) < perPage {
			return handled, nil
		}
		// A page of one second only (more case files completed in it than
		// a page holds) does not move the watermark: read on from it.
		if page++; st.Completed != anchor {
			page = 1
		}
	}
}

// handlePage hands each case file of a page not handled yet to Handle,
// saving the state after each, and answers how many it handled.
func (p *Poller) handlePage(ctx context.Context, items []casefiles.Details, st *State) (int, error) {
	handled := 0
	for _, d := range items {
		if d.Completed.IsZero() {
			return handled, fmt.Errorf("case file %d is completed but has no completion time", d.ID)
		}
		sec := d.Completed.Unix()
		if st.handled(d.ID, sec) {
			continue
		}
		if err := p.Handle(ctx, d); err != nil {
			return handled, fmt.Errorf("handle case file %d: %w", d.ID, err)
		}
		st.add(d.ID, sec)
		if err := SaveState(p.StatePath, *st); err != nil {
			return handled, err
		}
		handled++
	}
	return handled, nil
}
