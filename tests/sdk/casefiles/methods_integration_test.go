package casefiles_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// The acceptance of the signing methods: two signers who must sign with
// MitID and BankID (Sweden), one of whom may also draw a signature and gets
// HTML email, read back with those settings; an unknown method passes
// Validate and is refused by the mock with the platform's 400.
func TestSigningMethodsReachThePlatformAndReadBack(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithJobDelay(0))
	cfg := srv.Config()
	sent := &countingTransport{next: http.DefaultTransport}
	cfg.HTTPClient = &http.Client{Transport: sent}
	client, err := signkit.NewClient(cfg)
	require.NoError(t, err)
	cf := &casefiles.CaseFile{
		Title: "Share purchase",
		Signers: []casefiles.Signer{
			{Name: "Mads Buyer", Email: "mads@example.dk",
				SecureSigningMethods: []casefiles.SecureSigningMethod{casefiles.SecureMitID}},
			{Name: "Sara Seller", Email: "sara@example.se",
				SecureSigningMethods:   []casefiles.SecureSigningMethod{casefiles.SecureBankIDSweden},
				EnableInsecureSigning:  true,
				InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw},
				EmailFormat:            casefiles.EmailFormatHTML},
		},
		Documents: []casefiles.Document{{Name: "spa.pdf", Title: "Share purchase agreement"}},
	}
	upload := casefiles.BytesUpload("spa.pdf", mockserver.SamplePDF("Agreement"))
	d := createAndGet(t, client, cf, upload)
	require.Len(t, d.Signers, 2)

	mads, sara := d.Signers[0], d.Signers[1]
	assert.Equal(t, []casefiles.SecureSigningMethod{casefiles.SecureMitID}, mads.SecureSigningMethods)
	assert.False(t, mads.EnableInsecureSigning)
	assert.Empty(t, mads.InsecureSigningMethods)
	assert.Equal(t, casefiles.EmailFormatText, mads.EmailFormat, "the platform's default")
	assert.Equal(t, []casefiles.SecureSigningMethod{casefiles.SecureBankIDSweden}, sara.SecureSigningMethods)
	assert.True(t, sara.EnableInsecureSigning)
	assert.Equal(t, []casefiles.InsecureSigningMethod{casefiles.InsecureDraw}, sara.InsecureSigningMethods)
	assert.Equal(t, casefiles.EmailFormatHTML, sara.EmailFormat)

	// An unknown method passes Validate (the platform adds methods), is
	// sent, and the mock refuses it as the platform does, naming the
	// methods it takes.
	before := sent.n.Load()
	bad := *cf
	bad.Signers = []casefiles.Signer{{Name: "Mads Buyer", SecureSigningMethods: []casefiles.SecureSigningMethod{"mitid.se"}}}
	require.NoError(t, bad.Validate(upload))
	_, err = client.CaseFiles.Create(ctx(t), &bad, upload)
	var apiErr *signkit.Error
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, err.Error(), "caseFile.signers[0].secureSigningMethods[0]")
	assert.Contains(t, err.Error(), "mitid.dk, bankid_se")
	assert.Greater(t, sent.n.Load(), before, "sent to the platform")

	// The raw answer is the platform's 400, with the mock's details.
	status, body := rawSendCreate(t, srv, `{"caseFile":{"title":"T","signers":[{"name":"A",`+
		`"secureSigningMethods":["mitid.se"]}],"documents":[{"name":"a.pdf","title":"A"}]}}`, mockserver.SamplePDF("x"))
	assert.Equal(t, http.StatusBadRequest, status, "%s", body)
	var e struct {
		Error, Message string
		StatusCode     int
		Details        []struct{ Field, Message string }
	}
	require.NoError(t, json.Unmarshal(body, &e))
	assert.Equal(t, "Bad Request", e.Error)
	assert.Equal(t, 400, e.StatusCode)
	require.NotEmpty(t, e.Details)
	assert.Equal(t, "caseFile.signers[0].secureSigningMethods[0]", e.Details[0].Field)
}

// Sensitive data turns access control on for every signer, and Validate
// says nothing against a signer who left it unset.
func TestSensitiveDataShowsAccessControlOnEverySigner(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t, mockserver.WithJobDelay(0))
	cf := &casefiles.CaseFile{
		Title:         "Medical consent",
		SensitiveData: true,
		Signers:       []casefiles.Signer{{Name: "Pat Patient", Email: "pat@example.com"}, {Name: "Dr Doe", AccessControl: true}},
		Documents:     []casefiles.Document{{Name: "consent.pdf", Title: "Consent"}},
	}
	upload := casefiles.BytesUpload("consent.pdf", mockserver.SamplePDF("Consent"))
	require.NoError(t, cf.Validate(upload))
	d := createAndGet(t, client, cf, upload)
	assert.True(t, d.SensitiveData)
	require.Len(t, d.Signers, 2)
	for _, s := range d.Signers {
		assert.True(t, s.AccessControl, "%s: access control off on a case file with sensitive data", s.Name)
	}
}

// createAndGet creates cf, waits for its job and answers its details.
func createAndGet(t *testing.T, client *signkit.Client, cf *casefiles.CaseFile, uploads ...casefiles.Upload) *casefiles.Details {
	t.Helper()
	job, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	return d
}

// countingTransport counts the requests it carries.
type countingTransport struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// rawSendCreate posts a multipart Send create with one file, as a client
// without the SDK's validation would, and answers the status and body.
func rawSendCreate(t *testing.T, srv *mockserver.Server, data string, pdf []byte) (int, []byte) {
	t.Helper()
	cfg := srv.Config()
	tok, err := auth.NewTokenSource(cfg.Endpoints.Auth, cfg.Credentials).Token(ctx(t))
	require.NoError(t, err)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(t, mw.WriteField("data", data))
	fw, err := mw.CreateFormFile("files", "a.pdf")
	require.NoError(t, err)
	_, err = fw.Write(pdf)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	req, err := http.NewRequestWithContext(ctx(t), http.MethodPost, cfg.Endpoints.Send+"/api/v1/casefiles/20251022/create", &buf)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-Auth-Token", tok.AccessToken)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, body
}
