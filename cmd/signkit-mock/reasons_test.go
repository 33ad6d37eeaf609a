package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// Over the network, against the command: the control API's reject with a
// reason, read back as the signer's RejectReason, and the control API's
// fail, read back through GET /api/v1/casefiles/{id}/errors ([] for a
// case file that did not fail).
func TestBinaryReasons(t *testing.T) {
	t.Parallel()
	base, client, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual")
	send := func(title string) *casefiles.Details {
		t.Helper()
		job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: title, Signers: []casefiles.Signer{{Name: "A"}},
			Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF(title)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.CaseFiles.Wait(ctx, job)
		if err != nil {
			t.Fatal(err)
		}
		d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	post := func(path, body string) {
		t.Helper()
		resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
		}
	}

	rejected := send("Rejected")
	post(fmt.Sprintf("/mock/casefiles/%d/signers/%d/reject", rejected.ID, rejected.Signers[0].ID), `{"reason":"Not my name."}`)
	d, err := client.CaseFiles.Get(ctx, rejected.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != casefiles.CaseFileRejected || d.Signers[0].RejectReason != "Not my name." {
		t.Errorf("after the reject: status %v, reason %q", d.Status, d.Signers[0].RejectReason)
	}

	failed := send("Failed")
	post(fmt.Sprintf("/mock/casefiles/%d/fail", failed.ID), `{"reason":"The archive is down."}`)
	for id, want := range map[int64][]string{rejected.ID: {}, failed.ID: {"The archive is down."}} {
		got, err := client.CaseFiles.Errors(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil || !slices.Equal(got, want) {
			t.Errorf("errors of case file %d: %#v, want %#v", id, got, want)
		}
	}
}
