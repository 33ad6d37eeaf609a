package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// world is a mock server on a manual clock with case files waiting for
// their one signer.
type world struct {
	t      *testing.T
	srv    *mockserver.Server
	client *signkit.Client
}

func newWorld(t *testing.T) *world {
	t.Helper()
	srv := mockserver.Start(t, mockserver.WithManualClock(start))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, srv: srv, client: client}
}

// pending creates n case files and answers their details.
func (w *world) pending(n int) []*casefiles.Details {
	w.t.Helper()
	out := make([]*casefiles.Details, n)
	for i := range out {
		title := fmt.Sprintf("Case %d", i)
		job, err := w.client.CaseFiles.Create(w.t.Context(), &casefiles.CaseFile{Title: title,
			Signers:   []casefiles.Signer{{Name: "Ann", Email: "ann@example.com"}},
			Documents: []casefiles.Document{{Name: "a.pdf", Title: title}},
		}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF(title)))
		if err != nil {
			w.t.Fatal(err)
		}
		res, err := w.client.CaseFiles.Wait(w.t.Context(), job) // at once on a manual clock
		if err != nil {
			w.t.Fatal(err)
		}
		if out[i], err = w.client.CaseFiles.Get(w.t.Context(), res.CaseFileID); err != nil {
			w.t.Fatal(err)
		}
	}
	return out
}

// complete signs the case files now, all in the current second.
func (w *world) complete(cfs ...*casefiles.Details) {
	w.t.Helper()
	for _, d := range cfs {
		if err := w.srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionSign); err != nil {
			w.t.Fatal(err)
		}
	}
}

// recorder is a Handle that counts, keeps the order, and crashes (as it
// were) once it has handled budget case files; budget < 0: never.
type recorder struct {
	counts map[int64]int
	order  []casefiles.Details
	budget int
}

var errStop = errors.New("crash")

func (r *recorder) handle(_ context.Context, d casefiles.Details) error {
	if r.budget == 0 {
		return errStop
	}
	r.budget--
	r.counts[d.ID]++
	r.order = append(r.order, d)
	return nil
}

// poller answers a Poller over w's mock time with a fresh state file.
func (w *world) poller(perPage int, r *recorder) *Poller {
	return &Poller{CaseFiles: w.client.CaseFiles, StatePath: filepath.Join(w.t.TempDir(), "state.json"),
		PerPage: perPage, Handle: r.handle, Now: w.srv.Now}
}

// TestPollerHandlesEachOnceAcrossCrashesAndPages completes twelve case
// files, four of them in one second and three in another, reads them in
// pages smaller than those ties, stops the poller after k case files (a
// crash: the state file holds what it saved) and restarts it until it is
// through, then completes more between runs. Every case file is handled
// exactly once, in the order of completion.
func TestPollerHandlesEachOnceAcrossCrashesAndPages(t *testing.T) {
	t.Parallel()
	for _, perPage := range []int{1, 2, 3} {
		for _, crashAfter := range []int{0, 1, 2, 4} {
			t.Run(fmt.Sprintf("perPage=%d,crashAfter=%d", perPage, crashAfter), func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				cfs := w.pending(12)
				r := &recorder{counts: map[int64]int{}}
				p := w.poller(perPage, r)
				// Four in one second (in an order other than their ids),
				// one the next, three two seconds later.
				w.srv.Advance(time.Minute)
				w.complete(cfs[3], cfs[0], cfs[2], cfs[1])
				w.srv.Advance(time.Second)
				w.complete(cfs[4])
				w.srv.Advance(2 * time.Second)
				w.complete(cfs[7], cfs[5], cfs[6])
				w.srv.Advance(time.Second)
				pollUntilThrough(t, p, r, crashAfter)
				assertOnce(t, r, cfs[:8])

				// New completions between runs, one of them in the
				// current second: held back until that second is over.
				w.complete(cfs[8], cfs[9])
				w.srv.Advance(time.Second)
				w.complete(cfs[10])
				pollUntilThrough(t, p, r, crashAfter)
				assertOnce(t, r, cfs[:10])
				w.srv.Advance(time.Second)
				w.complete(cfs[11])
				w.srv.Advance(time.Second)
				pollUntilThrough(t, p, r, crashAfter)
				assertOnce(t, r, cfs)
			})
		}
	}
}

// pollUntilThrough polls, crashing after crashAfter case files each time
// (0: a crash before the first, on the first poll only), and restarts
// from the state file until a poll goes through.
func pollUntilThrough(t *testing.T, p *Poller, r *recorder, crashAfter int) {
	t.Helper()
	for i := range 50 {
		r.budget = crashAfter
		if crashAfter == 0 && i > 0 {
			r.budget = -1
		}
		_, err := p.Poll(t.Context())
		if err == nil {
			return
		}
		if !errors.Is(err, errStop) {
			t.Fatalf("poll %d: %v", i, err)
		}
	}
	t.Fatal("the poller never got through")
}

// assertOnce checks that exactly want were handled, each once, in
// ascending order of completion.
func assertOnce(t *testing.T, r *recorder, want []*casefiles.Details) {
	t.Helper()
	for _, d := range want {
		if r.counts[d.ID] != 1 {
			t.Errorf("case file %d (%s) handled %d times, want once", d.ID, d.Title, r.counts[d.ID])
		}
	}
	if len(r.counts) != len(want) {
		t.Errorf("handled %d case files, want %d: %v", len(r.counts), len(want), r.counts)
	}
	if !slices.IsSortedFunc(r.order, func(a, b casefiles.Details) int { return a.Completed.Compare(b.Completed) }) {
		t.Errorf("not handled in the order of completion")
	}
}

// A case file that leaves the list while the poller reads it (anonymized
// after its retention) shifts the list; the others are still handled,
// each once.
func TestPollerSurvivesACaseFileLeavingTheList(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cfs := w.pending(6)
	for _, d := range cfs {
		w.srv.Advance(time.Second)
		w.complete(d)
	}
	w.srv.Advance(time.Second)
	r := &recorder{counts: map[int64]int{}, budget: -1}
	p := w.poller(2, r)
	handle := p.Handle
	p.Handle = func(ctx context.Context, d casefiles.Details) error {
		if d.ID == cfs[0].ID { // gone before the poller reads on
			if err := w.srv.AnonymizeCaseFile(cfs[0].ID); err != nil {
				t.Fatal(err)
			}
		}
		return handle(ctx, d)
	}
	if _, err := p.Poll(t.Context()); err != nil {
		t.Fatal(err)
	}
	assertOnce(t, r, cfs)
}

// An error of Handle stops the poll with it; the case file is handled on
// the next poll, and the watermark does not move past it.
func TestPollerHandleErrorRetriesTheCaseFile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cfs := w.pending(2)
	w.complete(cfs...)
	w.srv.Advance(time.Second)
	fail := errors.New("disk full")
	calls := map[int64]int{}
	r := &recorder{counts: map[int64]int{}, budget: -1}
	p := w.poller(10, r)
	p.Handle = func(ctx context.Context, d casefiles.Details) error {
		if calls[d.ID]++; d.ID == cfs[1].ID && calls[d.ID] == 1 {
			return fail
		}
		return r.handle(ctx, d)
	}
	if n, err := p.Poll(t.Context()); !errors.Is(err, fail) || n != 1 {
		t.Fatalf("poll: %d, %v; want 1 and the handler's error", n, err)
	}
	if n, err := p.Poll(t.Context()); err != nil || n != 1 {
		t.Fatalf("poll again: %d, %v; want 1", n, err)
	}
	assertOnce(t, r, cfs)
}

func TestStateFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if s, err := LoadState(path); err != nil || s.Completed != 0 || len(s.IDs) != 0 {
		t.Fatalf("no file: %+v, %v; want the zero state", s, err)
	}
	want := State{Completed: 1772442000, IDs: []int64{4, 2}}
	if err := SaveState(path, want); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadState(path); err != nil || got.Completed != want.Completed || !slices.Equal(got.IDs, want.IDs) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the state file only", len(entries))
	}
	for name, content := range map[string]string{"garbage": "{", "negative": `{"completed":-5}`, "wrong type": `{"ids":"1"}`} {
		bad := filepath.Join(dir, name)
		if err := os.WriteFile(bad, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadState(bad); err == nil {
			t.Errorf("%s: read without an error", name)
		}
		p := &Poller{CaseFiles: nopLister{}, StatePath: bad, Handle: func(context.Context, casefiles.Details) error { return nil }}
		if _, err := p.Poll(t.Context()); err == nil {
			t.Errorf("%s: a poll started over a broken state file", name)
		}
	}
}

// TestStateWatermark: a case file is handled when it completed before the
// watermark's second, or in it and among its ids.
func TestStateWatermark(t *testing.T) {
	t.Parallel()
	s := State{Completed: 100, IDs: []int64{7}}
	for _, tc := range []struct {
		id, sec int64
		want    bool
	}{{1, 99, true}, {7, 100, true}, {8, 100, false}, {7, 101, false}} {
		if got := s.handled(tc.id, tc.sec); got != tc.want {
			t.Errorf("handled(%d, %d) = %v, want %v", tc.id, tc.sec, got, tc.want)
		}
	}
	s.add(8, 100)
	s.add(3, 102)
	if s.Completed != 102 || !slices.Equal(s.IDs, []int64{3}) {
		t.Errorf("after add: %+v, want {102 [3]}", s)
	}
}

// nopLister answers empty pages.
type nopLister struct{}

func (nopLister) List(context.Context, *casefiles.ListOptions) ([]casefiles.Details, error) {
	return nil, nil
}

// samePage answers the same full page whatever is asked, as a platform
// that ignored page would.
type samePage struct{ items []casefiles.Details }

func (s samePage) List(context.Context, *casefiles.ListOptions) ([]casefiles.Details, error) {
	return s.items, nil
}

// A platform that answers the same page again cannot make the poller loop.
func TestPollerStopsOnARepeatedPage(t *testing.T) {
	t.Parallel()
	at := start.Add(-time.Hour)
	lister := samePage{items: []casefiles.Details{{ID: 1, Completed: at}, {ID: 2, Completed: at}}}
	r := &recorder{counts: map[int64]int{}, budget: -1}
	p := &Poller{CaseFiles: lister, StatePath: filepath.Join(t.TempDir(), "state.json"), PerPage: 2,
		Handle: r.handle, Now: func() time.Time { return start }}
	n, err := p.Poll(t.Context())
	if err == nil || n != 2 {
		t.Fatalf("poll: %d, %v; want 2 handled and an error about the repeated page", n, err)
	}
	if r.counts[1] != 1 || r.counts[2] != 1 {
		t.Errorf("handled %v, want 1 and 2 once", r.counts)
	}
}
