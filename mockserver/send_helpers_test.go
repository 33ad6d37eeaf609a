package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sndPart is one part of a Send create body.
type sndPart struct {
	field, filename string
	body            []byte
}

// sndData is the data part {"caseFile": cf}.
func sndData(t testing.TB, cf any) sndPart {
	t.Helper()
	b, err := json.Marshal(map[string]any{"caseFile": cf})
	if err != nil {
		t.Fatal(err)
	}
	return sndPart{field: "data", body: b}
}

func sndFile(name string, b []byte) sndPart { return sndPart{field: "files", filename: name, body: b} }

// sndBody builds a multipart body of the parts, in order.
func sndBody(t testing.TB, parts ...sndPart) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.field, p.filename)
		} else {
			w, err = mw.CreateFormField(p.field)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(p.body)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, mw.FormDataContentType()
}

// sndJob is the 200 answer of the create endpoint.
type sndJob struct {
	UUID        string `json:"uuid"`
	PayloadHash string `json:"payloadHash"`
	Status      string `json:"status"`
	Message     string `json:"message"`
	Jobs        []struct {
		UUID        string `json:"uuid"`
		PayloadHash string `json:"payloadHash"`
		CreatedAt   string `json:"createdAt"`
	} `json:"jobs"`
}

// sndCreate posts a Send create request with the token in X-Auth-Token.
func sndCreate(t testing.TB, s *Server, tok string, parts ...sndPart) (int, []byte, sndJob) {
	t.Helper()
	body, ct := sndBody(t, parts...)
	req, err := http.NewRequest("POST", s.URL()+"/send"+sendCreatePath, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-Auth-Token", tok)
	return sndSendCreate(t, s, req)
}

// sndSendCreate sends a create request and answers its status, body and, on a
// 200, the job.
func sndSendCreate(t testing.TB, s *Server, req *http.Request) (int, []byte, sndJob) {
	t.Helper()
	var j sndJob
	st, b := do(t, s, req, nil)
	if st == http.StatusOK {
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatal(err)
		}
	}
	return st, b, j
}

// The states of a job in the queue status answer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status").
const (
	jobPending   = "pending"
	jobCompleted = "completed"
	jobDuplicate = "aborted_duplicated"
)

// signingLinkJSON is a signing link of the queue status answer.
type signingLinkJSON struct {
	Name        string `json:"name"`
	Role        string `json:"role"`
	Email       string `json:"email"`
	SigningLink string `json:"signingLink"`
}

// sndStatusAnswer is the queue status answer.
type sndStatusAnswer struct {
	UUID        string          `json:"uuid"`
	Type        string          `json:"type"`
	Payload     json.RawMessage `json:"payload"`
	PayloadHash string          `json:"payloadHash"`
	JobStatus   string          `json:"jobStatus"`
	Retries     *int            `json:"retries"`
	MaxRetries  *int            `json:"maxRetries"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	Result      *struct {
		Data struct {
			CaseFile struct {
				ID int64 `json:"id"`
			} `json:"caseFile"`
			SigningLinks []signingLinkJSON `json:"signingLinks"`
		} `json:"data"`
	} `json:"result"`
	ErrorMessage *string `json:"errorMessage"`
}

// sndStatus calls the queue status check (no token).
func sndStatus(t testing.TB, s *Server, uuid, hash string) (int, sndStatusAnswer, []byte) {
	t.Helper()
	var out sndStatusAnswer
	st, b := call(t, s, "POST", "/send/api/v1/queue/public/status", "", map[string]string{"uuid": uuid, "payloadHash": hash}, nil)
	if st == 200 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return st, out, b
}

// sndRun creates a case file through the Send API, lets the job run and
// answers the case file id and the signing links.
func sndRun(t testing.TB, s *Server, tok string, cf map[string]any, files ...sndPart) (int64, []signingLinkJSON) {
	t.Helper()
	st, b, j := sndCreate(t, s, tok, append([]sndPart{sndData(t, cf)}, files...)...)
	if st != http.StatusOK {
		t.Fatalf("create: %d %s", st, b)
	}
	s.Advance(s.cfg.JobDelay)
	st, out, raw := sndStatus(t, s, j.UUID, j.PayloadHash)
	if st != 200 || out.JobStatus != jobCompleted || out.Result == nil {
		t.Fatalf("status after the job delay: %d %s", st, raw)
	}
	return out.Result.Data.CaseFile.ID, out.Result.Data.SigningLinks
}

// sndCase is a simple definition: the signers given as name[:email[:order]]
// ("-" for no email) and one signable document doc.pdf.
func sndCase(signers ...string) map[string]any {
	var list []any
	for _, spec := range signers {
		f := strings.Split(spec, ":")
		sg := map[string]any{"name": f[0]}
		if len(f) > 1 && f[1] != "-" {
			sg["email"] = f[1]
		}
		if len(f) > 2 {
			var n int
			fmt.Sscan(f[2], &n)
			sg["signOrder"] = n
		}
		list = append(list, sg)
	}
	return map[string]any{"title": "Contract", "signers": list,
		"documents": []any{map[string]any{"name": "doc.pdf", "title": "The contract"}}}
}

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
	for _, ev := range s.core.Signing.EventsSince(0, 0) {
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

// sndSignerID finds a signer of a case file by name.
func sndSignerID(t testing.TB, s *Server, caseFileID int64, name string) int64 {
	t.Helper()
	var id int64
	s.core.Signing.Inspect(caseFileID, func(cf *caseFile) {
		for _, sg := range cf.Signers {
			if sg.Name == name {
				id = sg.ID
			}
		}
	})
	if id == 0 {
		t.Fatalf("case file %d has no signer %q", caseFileID, name)
	}
	return id
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
