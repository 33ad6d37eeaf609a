package forms_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestConcurrentSubmittersGetGaplessIDs runs 50 valid and 20 invalid
// submitters at once on one form: the valid ones get ids 1..50, each with
// its own case file; the invalid ones take no id.
func TestConcurrentSubmittersGetGaplessIDs(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	tok := login(t, s, s.DefaultCredentials())
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	path := testkit.PublicPath(testkit.FormView{PublicURL: f.PublicURL[len(s.URL()):]})
	const valid, invalid = 50, 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ids, cases []int64
	errs := make(chan string, valid+invalid)
	for i := range valid + invalid {
		wg.Go(func() {
			vals := testkit.ValidAnswers()
			vals["fullName"] = fmt.Sprintf("Submitter %d", i)
			if i >= valid {
				vals["email"] = "broken"
			}
			var out struct {
				SubmissionID int64 `json:"submissionId"`
				CaseFileID   int64 `json:"casefileId"`
			}
			st, b := testkit.PostPublic(t, s, path, vals, nil, true, &out)
			switch {
			case i < valid && st != 201, i >= valid && st != 422:
				errs <- fmt.Sprintf("submitter %d: %d %s", i, st, b)
			case st == 201:
				mu.Lock()
				ids, cases = append(ids, out.SubmissionID), append(cases, out.CaseFileID)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	slices.Sort(ids)
	slices.Sort(cases)
	for i := range valid {
		if i >= len(ids) || ids[i] != int64(i+1) || cases[i] != int64(i+1) {
			t.Fatalf("ids not gapless and unique: %v, case files %v", ids, cases)
		}
	}
	var list struct {
		Items []forms.SubmissionJSON `json:"items"`
		Total int                    `json:"total"`
	}
	testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+f.ExternalID+"/submissions?limit=1000", tok, nil, &list)
	if list.Total != valid || len(list.Items) != valid || list.Items[0].SubmissionID != 1 || list.Items[valid-1].SubmissionID != valid {
		t.Fatalf("listing: total %d, %d items", list.Total, len(list.Items))
	}
}
