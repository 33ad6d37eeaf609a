package send_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

func TestDuplicatePayloads(t *testing.T) {
	t.Parallel()
	// sends are made in order, each after moving the mock clock by after;
	// dupOf is the index of the send whose job a duplicate names, -1 for
	// an accepted one.
	type send struct {
		after     time.Duration
		colleague bool
		title     string
		dupOf     int
	}
	tests := []struct {
		name  string
		sends []send
	}{
		{"the same payload again", []send{{0, false, "A", -1}, {time.Minute, false, "A", 0}, {time.Minute, false, "A", 0}}},
		{"a different payload", []send{{0, false, "A", -1}, {0, false, "B", -1}}},
		{"another user's same payload", []send{{0, false, "A", -1}, {0, true, "A", -1}, {0, true, "A", 1}}},
		{"the window runs 24 h from the first job, a duplicate does not restart it", []send{
			{0, false, "A", -1}, {23 * time.Hour, false, "A", 0}, {time.Hour - time.Second, false, "A", 0},
			{time.Second, false, "A", -1}, {time.Minute, false, "A", 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _, file := sendServer(t)
			colleague, err := s.AddUser(mockserver.UserSpec{Name: "Colleague"})
			if err != nil {
				t.Fatal(err)
			}
			var jobs []testkit.Job
			for i, sd := range tc.sends {
				s.Advance(sd.after)
				creds := s.DefaultCredentials()
				if sd.colleague {
					creds = colleague
				}
				st, b, j := testkit.SendCreate(t, s, login(t, s, creds), testkit.DataPart(t, testkit.TitledCase(sd.title, nil)), file)
				if st != http.StatusOK {
					t.Fatalf("send %d: %d %s, want 200 (a duplicate is accepted, its job is aborted)", i, st, b)
				}
				jobs = append(jobs, j)
			}
			s.Advance(testkit.JobDelay(s))
			accepted := 0
			for i, sd := range tc.sends {
				_, out, raw := testkit.QueueStatus(t, s, jobs[i].UUID, jobs[i].PayloadHash)
				if sd.dupOf < 0 {
					accepted++
					if out.JobStatus != testkit.JobCompleted {
						t.Errorf("send %d: %s, want completed", i, raw)
					}
					continue
				}
				if out.JobStatus != testkit.JobDuplicate || out.Result != nil || out.ErrorMessage == nil ||
					!strings.Contains(*out.ErrorMessage, jobs[sd.dupOf].UUID) {
					t.Errorf("send %d: %s, want aborted_duplicated naming job %s", i, raw, jobs[sd.dupOf].UUID)
				}
			}
			if n := s.Stats().CaseFiles; n != accepted {
				t.Errorf("%d case files, want %d", n, accepted)
			}
			if n := len(s.Emails()); n != accepted {
				t.Errorf("%d request emails, want %d", n, accepted)
			}
			if n := len(s.Events(0)); n != 2*accepted {
				t.Errorf("%d events, want %d (activated and requestSent per accepted case file)", n, 2*accepted)
			}
			if f := testkit.TempFiles(t, s); len(f) != accepted {
				t.Errorf("%d uploaded files kept, want %d: a duplicate keeps none", len(f), accepted)
			}
		})
	}
}

func TestDuplicatesAcceptedAtOnce(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	data := testkit.DataPart(t, testkit.TitledCase("Race", nil))
	const n = 8
	jobs := make([]testkit.Job, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, jobs[i] = testkit.SendCreate(t, s, tok, data, file)
		}()
	}
	wg.Wait()
	s.Advance(testkit.JobDelay(s))
	var first string
	var aborted []string
	for _, j := range jobs {
		_, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash)
		switch out.JobStatus {
		case testkit.JobCompleted:
			if first != "" {
				t.Fatalf("two jobs completed: %s and %s", first, j.UUID)
			}
			first = j.UUID
		case testkit.JobDuplicate:
			aborted = append(aborted, *out.ErrorMessage)
		default:
			t.Fatalf("job %s: %s", j.UUID, raw)
		}
	}
	if first == "" || len(aborted) != n-1 {
		t.Fatalf("completed %q and %d aborted, want one and %d", first, len(aborted), n-1)
	}
	for _, msg := range aborted {
		if !strings.Contains(msg, first) {
			t.Errorf("errorMessage %q does not name the first job %s", msg, first)
		}
	}
	if c, e := s.Stats().CaseFiles, len(s.Emails()); c != 1 || e != 1 {
		t.Errorf("%d case files and %d emails, want 1 and 1", c, e)
	}
}

func TestDuplicateOfAFailedRequestIsNotADuplicate(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	bad := testkit.TitledCase("Refused", nil)
	bad["language"] = "xx"
	if st, b, _ := testkit.SendCreate(t, s, tok, testkit.DataPart(t, bad), file); st != http.StatusBadRequest {
		t.Fatalf("invalid request: %d %s", st, b)
	}
	delete(bad, "language")
	id, _ := testkit.RunCase(t, s, tok, bad, file)
	st, b, j := testkit.SendCreate(t, s, tok, testkit.DataPart(t, bad), file)
	s.Advance(testkit.JobDelay(s))
	_, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash)
	if st != 200 || out.JobStatus != testkit.JobDuplicate || id != 1 {
		t.Fatalf("a refused request must not count; the second valid one must: %d %s; %s", st, b, raw)
	}
	if n := s.Stats().CaseFiles; n != 1 {
		t.Fatalf("%d case files, want 1", n)
	}
}
