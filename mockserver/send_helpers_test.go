package mockserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The kit's Send helpers under the names these tests use
// (mockserver/internal/testkit).
type (
	sndPart = testkit.Part
	sndJob  = testkit.Job
)

var (
	sndData       = testkit.DataPart
	sndFile       = testkit.FilePart
	sndBody       = testkit.Multipart
	sndCreate     = testkit.SendCreate
	sndSendCreate = testkit.DoSendCreate
	sndStatus     = testkit.QueueStatus
	sndRun        = testkit.RunCase
	sndCase       = testkit.CaseDef
	sndSignerID   = testkit.SignerID
)

// The states of a job in the queue status answer.
const (
	jobPending   = testkit.JobPending
	jobCompleted = testkit.JobCompleted
	jobDuplicate = testkit.JobDuplicate
)

// sndServer is a manual-clock server, a token of its default admin, and a
// valid PDF to upload.
func sndServer(t testing.TB, opts ...Option) (*Server, string, sndPart) {
	t.Helper()
	s := newManual(t, opts...)
	return s, login(t, s, s.DefaultCredentials()), sndFile("doc.pdf", SamplePDF("Contract text"))
}

// sndEvents answers a case file's events written "type" for case file
// events and "type:Signer name" for signer events (the "sign." prefix
// dropped), oldest first.
func sndEvents(t testing.TB, s *Server, caseFileID int64) []string {
	t.Helper()
	names := map[int64]string{}
	s.core.Signing.Inspect(caseFileID, func(cf *caseFile) {
		if cf != nil {
			for _, sg := range cf.Signers {
				names[sg.ID] = sg.Name
			}
		}
	})
	var out []string
	for _, ev := range s.Events(0) {
		if ev.CaseFileID != caseFileID {
			continue
		}
		var body struct {
			Topic   string `json:"topic"`
			Payload struct {
				ID int64 `json:"id"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(ev.Body, &body); err != nil {
			t.Fatal(err)
		}
		e := strings.TrimPrefix(ev.Type, "sign.")
		if body.Topic == "signer" {
			e += ":" + names[body.Payload.ID]
		}
		out = append(out, e)
	}
	return out
}

// sndCaseCount answers how many case files exist.
func sndCaseCount(s *Server) int {
	return s.core.Signing.Count()
}

// sndTempFiles answers the regular files under the server's temporary
// directory.
func sndTempFiles(t testing.TB, s *Server) []string {
	t.Helper()
	root := s.core.Temp.Root()
	if root == "" {
		return nil
	}
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

const day = 24 * time.Hour
