package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// advanceClock moves the manual clock of the mock at base by whole
// seconds through the control API.
func advanceClock(t *testing.T, base string, d time.Duration) {
	t.Helper()
	body := strings.NewReader(`{"seconds":` + strconv.FormatInt(int64(d/time.Second), 10) + `}`)
	resp, err := http.Post(base+"/mock/clock/advance", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("advance: %d %s", resp.StatusCode, b)
	}
}

// With -job-retention, a finished job's status checks answer the
// platform's 404 once the retention has passed on the mock's clock, which
// the SDK reports as signkit.ErrNotFound saying the job may have expired.
func TestJobRetentionFlag(t *testing.T) {
	t.Parallel()
	base, client, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-job-retention", "1h")
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: "Retained", Signers: []casefiles.Signer{{Name: "A"}},
		Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF("A")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CaseFiles.Wait(ctx, job); err != nil {
		t.Fatal(err)
	}
	advanceClock(t, base, 59*time.Minute)
	if st, err := client.CaseFiles.Status(ctx, job); err != nil || st.State != casefiles.JobCompleted {
		t.Fatalf("within the retention: %+v, %v", st, err)
	}
	advanceClock(t, base, time.Minute)
	_, err = client.CaseFiles.Status(ctx, job)
	if !errors.Is(err, signkit.ErrNotFound) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("after the retention: %v, want ErrNotFound saying the job may have expired", err)
	}

	for _, bad := range []string{"-1h", "soon"} {
		if _, err := parseFlags([]string{"-job-retention", bad}, io.Discard); err == nil {
			t.Errorf("-job-retention %s: no error", bad)
		}
	}
	if o, err := parseFlags(nil, io.Discard); err != nil || o.jobRetention != 0 {
		t.Errorf("default retention: %v, %v; want none", o.jobRetention, err)
	}
}

// -h lists -job-retention with its default.
func TestUsageListsJobRetention(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &out); err == nil {
		t.Fatal("-h: no ErrHelp")
	}
	if !strings.Contains(out.String(), "-job-retention") || !strings.Contains(out.String(), "default: none") {
		t.Errorf("usage does not list -job-retention and its default:\n%s", out.String())
	}
}
