package casefiles_test

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
)

// fakePlatform is the small stand-in of the platform's send and signing
// services that ExampleClient_List_completed and
// ExampleClient_UpdateSigningRequest run against (an httptest server), with
// the login service's token endpoint, under signkit.LocalEndpoints' paths
// and in the platform's shapes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
// A created case file is out for signing at once, its job completed; its
// clock stands still until advanced; sign and bounce play what signers and
// mail servers do on the platform.
type fakePlatform struct {
	mu    sync.Mutex
	now   time.Time
	files []*fakeCaseFile
}

type fakeCaseFile struct {
	ID        int64
	Title     string
	Status    casefiles.CaseFileStatus
	Created   time.Time
	Completed time.Time
	Signers   []*fakeSigner
}

type fakeSigner struct {
	ID, RequestID int64
	Name, Email   string
	Status        casefiles.SignerStatus
}

const platformToken = "example-token"

// platformClient starts a fake platform whose clock reads now, and returns
// a client of it and the function that stops it.
func platformClient(now time.Time) (*signkit.Client, *fakePlatform, func()) {
	p := &fakePlatform{now: now}
	srv := httptest.NewServer(p.routes())
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL),
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "secret", APIKey: "key", APISecret: "api-secret"},
	})
	if err != nil {
		log.Fatal(err)
	}
	return client, p, srv.Close
}

func (p *fakePlatform) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /auth/oauth/token", func(w http.ResponseWriter, _ *http.Request) {
		platformJSON(w, http.StatusOK, map[string]any{"access_token": platformToken, "token_type": "Bearer", "expires_in": 600})
	})
	mux.HandleFunc("POST /send/api/v1/casefiles/20251022/create", p.create)
	mux.HandleFunc("POST /send/api/v1/queue/public/status", p.status)
	mux.HandleFunc("GET /api/v1/casefiles", p.list)
	mux.HandleFunc("GET /api/v1/casefiles/{id}", p.get)
	mux.HandleFunc("PUT /api/v1/signingrequests/{id}", p.updateRequest)
	mux.HandleFunc("PATCH /api/v1/signingrequests/{id}/send", p.resendRequest)
	mux.HandleFunc("GET /api/v1/signingrequests/{id}/link", p.link)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + r.Header.Get("X-Auth-Token")
		if !strings.HasPrefix(r.URL.Path, "/auth/") && !strings.HasSuffix(r.URL.Path, "/queue/public/status") && token != platformToken {
			platformJSON(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "no token"})
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

// create reads the data part of the multipart create and queues a job
// that has already completed.
func (p *fakePlatform) create(w http.ResponseWriter, r *http.Request) {
	var data struct{ CaseFile casefiles.CaseFile }
	if err := json.Unmarshal([]byte(r.FormValue("data")), &data); err != nil {
		platformJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": "no data part"})
		return
	}
	cf := &fakeCaseFile{ID: int64(len(p.files) + 1), Title: data.CaseFile.Title, Status: casefiles.CaseFilePending, Created: p.now}
	for i, s := range data.CaseFile.Signers {
		id := cf.ID*10 + int64(i) + 1
		cf.Signers = append(cf.Signers, &fakeSigner{ID: id, RequestID: 100 + id, Name: s.Name, Email: s.Email, Status: casefiles.SignerPending})
	}
	p.files = append(p.files, cf)
	platformJSON(w, http.StatusOK, map[string]any{"uuid": fmt.Sprint("job-", cf.ID), "payloadHash": fmt.Sprint("hash-", cf.ID),
		"status": "handled", "message": "Job created"})
}

func (p *fakePlatform) status(w http.ResponseWriter, r *http.Request) {
	var job struct{ UUID string }
	_ = json.NewDecoder(r.Body).Decode(&job)
	id, err := strconv.ParseInt(strings.TrimPrefix(job.UUID, "job-"), 10, 64)
	if err != nil || id < 1 || id > int64(len(p.files)) {
		platformJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "message": "no such job"})
		return
	}
	platformJSON(w, http.StatusOK, map[string]any{"uuid": job.UUID, "jobStatus": "completed",
		"result": map[string]any{"data": map[string]any{"caseFile": map[string]any{"id": id}, "signingLinks": []any{}}}})
}

func (p *fakePlatform) get(w http.ResponseWriter, r *http.Request) {
	for _, cf := range p.files {
		if strconv.FormatInt(cf.ID, 10) == r.PathValue("id") {
			platformJSON(w, http.StatusOK, cf.wire())
			return
		}
	}
	platformJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "message": "no such case file"})
}

// list honours the polling query: status, completedAfter (exclusive, unix
// seconds) and sort by completion.
func (p *fakePlatform) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var after int64
	if s := q.Get("completedAfter"); s != "" {
		after, _ = strconv.ParseInt(s, 10, 64)
	}
	var found []*fakeCaseFile
	for _, cf := range p.files {
		if (q.Get("status") == "" || q.Get("status") == strconv.Itoa(int(cf.Status))) && (after == 0 || cf.Completed.Unix() > after) {
			found = append(found, cf)
		}
	}
	switch q.Get("sort") {
	case "completed":
		slices.SortFunc(found, func(a, b *fakeCaseFile) int { return a.Completed.Compare(b.Completed) })
	case "-completed":
		slices.SortFunc(found, func(a, b *fakeCaseFile) int { return b.Completed.Compare(a.Completed) })
	}
	out := []map[string]any{}
	for _, cf := range found {
		out = append(out, cf.wire())
	}
	platformJSON(w, http.StatusOK, out)
}

func (p *fakePlatform) updateRequest(w http.ResponseWriter, r *http.Request) {
	s := p.request(w, r)
	if s == nil {
		return
	}
	var body struct{ Email *string }
	_ = json.NewDecoder(r.Body).Decode(&body)
	if body.Email != nil {
		s.Email = *body.Email
		if s.Status == casefiles.SignerUndeliverable {
			s.Status = casefiles.SignerPending
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (p *fakePlatform) resendRequest(w http.ResponseWriter, r *http.Request) {
	if s := p.request(w, r); s != nil {
		w.WriteHeader(http.StatusNoContent)
	}
}

// link answers a JSON array whose first item is the signing link.
func (p *fakePlatform) link(w http.ResponseWriter, r *http.Request) {
	if s := p.request(w, r); s != nil {
		platformJSON(w, http.StatusOK, []string{fmt.Sprint("https://sign.example/sign/", s.RequestID)})
	}
}

// request returns the signer whose signing request the path names, or
// answers 404 and returns nil.
func (p *fakePlatform) request(w http.ResponseWriter, r *http.Request) *fakeSigner {
	for _, cf := range p.files {
		for _, s := range cf.Signers {
			if strconv.FormatInt(s.RequestID, 10) == r.PathValue("id") {
				return s
			}
		}
	}
	platformJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "message": "no such signing request"})
	return nil
}

// advance moves the platform's clock on.
func (p *fakePlatform) advance(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.now = p.now.Add(d)
}

// sign plays every signer of the case file signing now: it is completed.
func (p *fakePlatform) sign(caseFileID int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cf := range p.files {
		if cf.ID == caseFileID {
			for _, s := range cf.Signers {
				s.Status = casefiles.SignerSigned
			}
			cf.Status, cf.Completed = casefiles.CaseFileCompleted, p.now
		}
	}
}

// bounce plays the signer's mail server refusing the request email.
func (p *fakePlatform) bounce(signerID int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, cf := range p.files {
		for _, s := range cf.Signers {
			if s.ID == signerID {
				s.Status = casefiles.SignerUndeliverable
			}
		}
	}
}

// wire is the case file as the signing service answers it: times in unix
// seconds, each signer's email and status on its signing request.
func (cf *fakeCaseFile) wire() map[string]any {
	signers := []any{}
	for _, s := range cf.Signers {
		signers = append(signers, map[string]any{"id": s.ID, "name": s.Name,
			"signingRequest": map[string]any{"id": s.RequestID, "status": s.Status, "email": s.Email}})
	}
	var completed any
	if !cf.Completed.IsZero() {
		completed = cf.Completed.Unix()
	}
	return map[string]any{"id": cf.ID, "title": cf.Title, "status": cf.Status, "created": cf.Created.Unix(),
		"completed": completed, "signers": signers, "documents": []any{}}
}

func platformJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
