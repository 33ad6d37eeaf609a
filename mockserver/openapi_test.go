package mockserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestOpenAPIServed fetches the description as a client of another
// language would, and finds every service's routes in it.
func TestOpenAPIServed(t *testing.T) {
	s := newManual(t)
	req := jsonRequest(t, s, http.MethodGet, "/mock/openapi.json", nil)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if st, b := do(t, s, req, &doc); st != http.StatusOK {
		t.Fatalf("GET /mock/openapi.json: %d %s", st, b)
	}
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", doc.OpenAPI)
	}
	for path, method := range map[string]string{"/auth/oauth/token": "post", "/collect/api/v1/forms": "post",
		"/send/api/v1/casefiles/20251022/create": "post", "/api/v1/casefiles/{casefileId}": "get",
		"/webhook/api/v1/subscriptions": "get", "/public/sign/{token}": "post", "/mock/openapi.json": "get"} {
		if doc.Paths[path][method] == nil {
			t.Errorf("%s %s is not described", strings.ToUpper(method), path)
		}
	}
}

// TestExpiryAndSignerDocumentOverHTTP drives two routes that other tests
// reach through the façade only: the control API's expiry and the
// signer's view of a document.
func TestExpiryAndSignerDocumentOverHTTP(t *testing.T) {
	s, tok, pdf := sndServer(t)
	id, links := sndRun(t, s, tok, sndCase("Ann:ann@example.com"), pdf)
	at := s.Now().Add(48 * time.Hour).UTC()
	var cf struct {
		ExpireAt  *int64 `json:"expireAt"`
		Documents []struct {
			DocumentID string `json:"documentId"` // the key the signing page links with
		} `json:"documents"`
	}
	st, b := call(t, s, http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/expiry", id), "",
		map[string]string{"expireAt": at.Format(time.RFC3339)}, &cf)
	if st != http.StatusOK || cf.ExpireAt == nil || *cf.ExpireAt != at.Unix() {
		t.Fatalf("expiry: %d %s, want 200 with expireAt %d", st, b, at.Unix())
	}
	if st, b := call(t, s, http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/expiry", id), "",
		map[string]string{"expireAt": "tomorrow"}, nil); st != http.StatusUnprocessableEntity {
		t.Errorf("expiry of %q: %d %s, want 422", "tomorrow", st, b)
	}
	if len(links) != 1 || len(cf.Documents) != 1 {
		t.Fatalf("links %v, documents %v", links, cf.Documents)
	}
	path := strings.TrimPrefix(links[0].SigningLink, s.URL()) + "/documents/" + cf.Documents[0].DocumentID
	req := jsonRequest(t, s, http.MethodGet, path, nil)
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/pdf" {
		t.Errorf("GET %s: %d %s, want 200 application/pdf", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// TestEmptyListsAreArraysNotNull: a form without sections, or a section
// without fields, answers [] where the description says array.
func TestEmptyListsAreArraysNotNull(t *testing.T) {
	s := newManual(t)
	tok := login(t, s, s.DefaultCredentials())
	created := 0
	for _, def := range []map[string]any{
		{"name": "x"},
		{"name": "x", "sections": []any{map[string]any{"slug": "s", "title": "S"}}},
	} {
		st, b := call(t, s, http.MethodPost, "/collect/api/v1/forms", tok, def, nil)
		if st != http.StatusCreated {
			continue // refused is fine; what is answered must hold the shape
		}
		created++
		if strings.Contains(string(b), "null") {
			t.Errorf("POST %v answered %s: null where an array belongs", def, b)
		}
	}
	if created == 0 {
		t.Fatal("both forms were refused: nothing was checked")
	}
}
