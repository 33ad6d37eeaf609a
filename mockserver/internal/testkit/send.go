package testkit

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

	"github.com/signkit/signkit-go/mockserver/internal/app"
)

// SendCreatePath is the Send create endpoint under {Send}.
const SendCreatePath = app.SendCreatePath

// The states of a job in the queue status answer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status").
const (
	JobPending   = "pending"
	JobCompleted = "completed"
	JobDuplicate = "aborted_duplicated"
)

// Part is one part of a Send create body: a form field, or a file when
// Filename is set.
type Part struct {
	Field, Filename string
	Body            []byte
}

// DataPart is the data part {"caseFile": cf}.
func DataPart(t testing.TB, cf any) Part {
	t.Helper()
	b, err := json.Marshal(map[string]any{"caseFile": cf})
	if err != nil {
		t.Fatal(err)
	}
	return Part{Field: "data", Body: b}
}

// FilePart is a file part of the files field.
func FilePart(name string, b []byte) Part { return Part{Field: "files", Filename: name, Body: b} }

// Multipart builds a multipart body of the parts, in order, and answers it
// with its Content-Type.
func Multipart(t testing.TB, parts ...Part) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.Filename != "" {
			w, err = mw.CreateFormFile(p.Field, p.Filename)
		} else {
			w, err = mw.CreateFormField(p.Field)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(p.Body)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, mw.FormDataContentType()
}

// Job is the 200 answer of the Send create endpoint.
type Job struct {
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

// SendCreate posts a Send create request of the parts with the token in
// X-Auth-Token, and answers its status, body and, on a 200, the job.
func SendCreate(t testing.TB, s Server, tok string, parts ...Part) (int, []byte, Job) {
	t.Helper()
	body, ct := Multipart(t, parts...)
	req, err := http.NewRequest("POST", s.URL()+"/send"+SendCreatePath, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-Auth-Token", tok)
	return DoSendCreate(t, s, req)
}

// DoSendCreate sends a create request and answers its status, body and, on
// a 200, the job.
func DoSendCreate(t testing.TB, s Server, req *http.Request) (int, []byte, Job) {
	t.Helper()
	var j Job
	st, b := Do(t, s, req, nil)
	if st == http.StatusOK {
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatal(err)
		}
	}
	return st, b, j
}

// SigningLink is a signing link of the queue status answer.
type SigningLink struct {
	Name        string `json:"name"`
	Role        string `json:"role"`
	Email       string `json:"email"`
	SigningLink string `json:"signingLink"`
}

// StatusAnswer is the queue status answer.
type StatusAnswer struct {
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
			SigningLinks []SigningLink `json:"signingLinks"`
		} `json:"data"`
	} `json:"result"`
	ErrorMessage *string `json:"errorMessage"`
}

// QueueStatus calls the queue status check (no token) and answers its
// status, the decoded answer (on a 200) and the raw body.
func QueueStatus(t testing.TB, s Server, uuid, hash string) (int, StatusAnswer, []byte) {
	t.Helper()
	var out StatusAnswer
	st, b := Call(t, s, "POST", "/send/api/v1/queue/public/status", "", map[string]string{"uuid": uuid, "payloadHash": hash}, nil)
	if st == 200 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
	}
	return st, out, b
}

// RunCase creates a case file through the Send API, lets the job run and
// answers the case file id and the signing links.
func RunCase(t testing.TB, s Server, tok string, cf map[string]any, files ...Part) (int64, []SigningLink) {
	t.Helper()
	st, b, j := SendCreate(t, s, tok, append([]Part{DataPart(t, cf)}, files...)...)
	if st != http.StatusOK {
		t.Fatalf("create: %d %s", st, b)
	}
	s.Advance(Core(s).Cfg.JobDelay)
	st, out, raw := QueueStatus(t, s, j.UUID, j.PayloadHash)
	if st != 200 || out.JobStatus != JobCompleted || out.Result == nil {
		t.Fatalf("status after the job delay: %d %s", st, raw)
	}
	return out.Result.Data.CaseFile.ID, out.Result.Data.SigningLinks
}

// CaseDef is a simple case file definition: the signers given as
// name[:email[:order]] ("-" for no email) and one signable document doc.pdf.
func CaseDef(signers ...string) map[string]any {
	var list []any
	for _, spec := range signers {
		f := strings.Split(spec, ":")
		sg := map[string]any{"name": f[0]}
		if len(f) > 1 && f[1] != "-" {
			sg["email"] = f[1]
		}
		if len(f) > 2 {
			var n int
			_, _ = fmt.Sscan(f[2], &n)
			sg["signOrder"] = n
		}
		list = append(list, sg)
	}
	return map[string]any{"title": "Contract", "signers": list,
		"documents": []any{map[string]any{"name": "doc.pdf", "title": "The contract"}}}
}

// JobDelay answers how long after acceptance, in mock time, a Send job of
// s runs: advancing s by it runs every job accepted until now.
func JobDelay(s Server) time.Duration { return Core(s).Cfg.JobDelay }

// TempRoot answers the temporary directory of s, where Send uploads are
// kept; empty while none has been made.
func TempRoot(s Server) string { return Core(s).Temp.Root() }

// TempFiles answers the regular files under the temporary directory of s.
func TempFiles(t testing.TB, s Server) []string {
	t.Helper()
	root := TempRoot(s)
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
