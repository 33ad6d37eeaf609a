package casefiles_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"

	signkit "github.com/signkit/signkit-go"
)

// fixture reads testdata/name: answers of our own, written in the shapes the
// vendor documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md).
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

func unix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// The vendor's shape: roles and sign orders only on the signature lines of
// two documents; two roles in two rounds.
func TestDecodeCaseFileDetailsFixture(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, `/api/v1/casefiles/4711`, 200, fixture(t, "casefile_details.json"))
	got, err := e.Client.CaseFiles.Get(ctx(t), 4711)
	require.NoError(t, err)
	lines := func(doc int64) []casefiles.SignatureLine {
		return []casefiles.SignatureLine{
			{ID: 7001 + 2*(doc-9001), SignerID: 101, Role: "landlord", SignOrder: 0, ActivatedAt: unix(1767225660), DocumentID: doc},
			{ID: 7002 + 2*(doc-9001), SignerID: 102, Role: "tenant", SignOrder: 1, DocumentID: doc},
		}
	}
	// communicationChannel is a member of the Connector's
	// SigningRequestDetails that this package does not read.
	channel := map[string]json.RawMessage{"signingRequest": json.RawMessage(`{"communicationChannel":"email"}`)}
	assert.Equal(t, &casefiles.Details{
		ID: 4711, Title: "Lease: Elm Street 12", Status: casefiles.CaseFilePending,
		Signers: []casefiles.SignerDetails{
			{ID: 101, Name: "Lena Landlord", Role: "landlord", Email: "lena@example.com", SignOrder: 0, Status: casefiles.SignerSigned,
				Roles: []string{"landlord"}, SigningRequestID: 201, SSNType: "legacy", EmailFormat: casefiles.EmailFormatText,
				StoreAsContact: true, Language: "en", EmailSubject: "Please sign the lease", EmailText: "Dear Lena, please sign.",
				ReminderInterval: 2, Extra: channel},
			{ID: 102, Name: "Tom Tenant", Role: "tenant", Email: "tom@example.com", SignOrder: 1, Status: casefiles.SignerNew,
				Roles: []string{"tenant"}, SigningRequestID: 202, SSNType: "legacy",
				AccessControl: true, EnableInsecureSigning: true, EmailFormat: casefiles.EmailFormatHTML,
				SecureSigningMethods:   []casefiles.SecureSigningMethod{casefiles.SecureMitID, casefiles.SecureBankIDSweden},
				InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw, casefiles.InsecureImage},
				Language:               "en", Extra: channel},
		},
		Documents: []casefiles.DocumentDetails{
			{ID: 9001, DocumentID: "K3V9A-77QWE-PL0ZX-M2NB4-TT81C-Q0R5S", Title: "Lease", Signable: true, FileSize: 20480,
				DocumentOrder: 0, SignatureLines: lines(9001), CaseFileID: 4711, Status: 1, Format: "pdf", Created: unix(1767225600)},
			{ID: 9002, DocumentID: "B8D2E-19XQA-ZZ7LK-0P3MC-HG5WT-U1Y6V", Title: "House rules", Signable: true, FileSize: 10240,
				DocumentOrder: 1, SignatureLines: lines(9002), CaseFileID: 4711, Status: 1, Format: "pdf", Created: unix(1767225601)},
		},
		UserID: 12, CustomerID: 3,
		Created: unix(1767225600), Activated: unix(1767225660), Updated: unix(1767225720), ExpireAt: unix(1769904000),
		Language: "en", DisableEmailAttachments: true,
		CCRecipients: []casefiles.CCRecipient{{Name: "Agent Anna", Email: "anna@agency.example", StoreAsContact: signkit.Ptr(true)}},
	}, got)
}

// Older and looser shapes still decode: the role and sign order on the
// signer itself, the email and status on the signer when it has no signing
// request, booleans as 0 and 1, times as numbers in strings (as the .NET
// SDK's fixtures have them) or RFC 3339.
func TestGetTolerantShapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42`, 200, `{"id":42,"title":"Contract","status":8,
		"userId":"3","created":"1412092736","activated":"2026-01-01T00:00:00Z","updated":0,"sensitiveData":1,
		"signers":[
			{"id":7,"name":"Ada","role":"employee","signOrder":0,"signingRequest":{"id":70,"status":4,"email":"ada@example.com"}},
			{"id":8,"name":"Bob","role":"employer","signOrder":1,"signingRequest":{"id":80,"status":0,"email":""}},
			{"id":9,"name":"Eve","email":"eve@example.com","status":5}],
		"documents":[
			{"id":11,"documentId":"DOC-11","title":"Contract","signable":true,"status":1,"fileSize":1234,"format":"pdf"},
			{"id":12,"documentId":"DOC-12","title":"Terms","signable":0,"fileSize":"99"},
			{"id":13,"documentId":"DOC-13","title":"Annex"}]}`)
	got, err := e.Client.CaseFiles.Get(ctx(t), 42)
	require.NoError(t, err)
	assert.Equal(t, &casefiles.Details{
		ID: 42, Title: "Contract", Status: casefiles.CaseFileAnonymized, UserID: 3,
		Created: unix(1412092736), Activated: unix(1767225600), SensitiveData: true,
		Signers: []casefiles.SignerDetails{
			{ID: 7, Name: "Ada", Role: "employee", Roles: []string{"employee"}, Email: "ada@example.com", SignOrder: 0, Status: casefiles.SignerSigned, SigningRequestID: 70},
			{ID: 8, Name: "Bob", Role: "employer", Roles: []string{"employer"}, SignOrder: 1, Status: casefiles.SignerNew, SigningRequestID: 80},
			{ID: 9, Name: "Eve", Email: "eve@example.com", Status: casefiles.SignerUndeliverable},
		},
		Documents: []casefiles.DocumentDetails{
			{ID: 11, DocumentID: "DOC-11", Title: "Contract", Signable: true, FileSize: 1234, Status: 1, Format: "pdf"},
			{ID: 12, DocumentID: "DOC-12", Title: "Terms", Signable: false, FileSize: 99},
			{ID: 13, DocumentID: "DOC-13", Title: "Annex", Signable: true},
		},
	}, got)
	r := rec.last()
	assert.Equal(t, "Bearer tok-1", r.Auth)
	assert.Equal(t, "application/json", r.Accept)
}

// A signer with several lines: the smallest sign order, the first role in
// document order, every role once; the signer's own fields yield to lines.
func TestSignerRoleFromSeveralLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, `/api/v1/casefiles/5`, 200, `{"id":5,
		"signers":[{"id":1,"name":"Ada","role":"stale","signOrder":7},{"id":2,"name":"Bob"}],
		"documents":[
			{"id":20,"signatureLines":[{"id":1,"signerId":1,"role":"","signOrder":3},{"id":2,"signerId":2,"role":"witness","signOrder":0}]},
			{"id":21,"signatureLines":[{"id":3,"signerId":1,"role":"owner","signOrder":2},{"id":4,"signerId":1,"role":"chair","signOrder":4}]},
			{"id":22,"signatureLines":[{"id":5,"signerId":1,"role":"owner","signOrder":5}]}]}`)
	got, err := e.Client.CaseFiles.Get(ctx(t), 5)
	require.NoError(t, err)
	ada, bob := got.Signers[0], got.Signers[1]
	assert.Equal(t, "owner", ada.Role)
	assert.Equal(t, []string{"owner", "chair"}, ada.Roles)
	assert.Equal(t, 2, ada.SignOrder)
	assert.Equal(t, "witness", bob.Role)
	assert.Equal(t, 0, bob.SignOrder)
	assert.Equal(t, int64(20), got.Documents[0].SignatureLines[0].DocumentID, "a line without documentId is its document's")
}

func TestGetRejectsBadFields(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"signable": `{"id":42,"documents":[{"id":1,"signable":"maybe"}]}`,
		"created":  `{"id":42,"created":"yesterday"}`,
		"userId":   `{"id":42,"userId":"twelve"}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42`, 200, body)
			_, err := e.Client.CaseFiles.Get(ctx(t), 42)
			require.ErrorContains(t, err, "is not a")
		})
	}
}

// The content endpoint takes the document's integer id.
func TestDownloadDocument(t *testing.T) {
	t.Parallel()
	pdf := []byte("%PDF-1.7\nsigned\n%%EOF\n")
	for name, tc := range map[string]struct {
		opts      []casefiles.DocumentOption
		wantQuery string
	}{
		"signed":   {nil, ""},
		"original": {[]casefiles.DocumentOption{casefiles.Original()}, "?signed=false"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.handle(http.MethodGet, signURL, `/api/v3/documents/9001/content`, func(*http.Request, int) (*http.Response, error) {
				r := jsonResponse(200, string(pdf))
				r.Header.Set("Content-Type", "application/pdf")
				return r, nil
			})
			var buf bytes.Buffer
			n, err := e.Client.CaseFiles.DownloadDocument(ctx(t), 9001, &buf, tc.opts...)
			require.NoError(t, err)
			assert.Equal(t, int64(len(pdf)), n)
			assert.Equal(t, pdf, buf.Bytes())
			r := rec.last()
			assert.Equal(t, signURL+"/api/v3/documents/9001/content"+tc.wantQuery, r.URL)
			assert.Equal(t, "application/pdf", r.Accept)
			assert.Equal(t, "Bearer tok-1", r.Auth)
		})
	}
}

func TestDocumentContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, `/api/v3/documents/9/content`, 200, `{"content":"JVBERi0xLjcK","signed":false}`)
	got, err := e.Client.CaseFiles.DocumentContent(ctx(t), 9, casefiles.Original())
	require.NoError(t, err)
	assert.Equal(t, &casefiles.DocumentContent{Content: []byte("%PDF-1.7\n"), Signed: false}, got)
	r := rec.last()
	assert.Equal(t, "application/json", r.Accept)
	assert.Equal(t, signURL+"/api/v3/documents/9/content?signed=false", r.URL)

	e.reply(http.MethodGet, signURL, `/api/v3/documents/8/content`, 200, `{"content":"JVBERi0xLjcK","signed":true}`)
	got, err = e.Client.CaseFiles.DocumentContent(ctx(t), 8)
	require.NoError(t, err)
	assert.True(t, got.Signed)
}

func TestStatusStrings(t *testing.T) {
	t.Parallel()
	var cs []string
	for s := casefiles.CaseFileNew; s <= casefiles.CaseFileAnonymized+1; s++ {
		cs = append(cs, s.String())
	}
	assert.Equal(t, []string{"new", "pending", "rejected", "deleted", "signed", "completed", "failed", "expired", "anonymized", "CaseFileStatus(9)"}, cs)
	var ss []string
	for s := casefiles.SignerNew; s <= casefiles.SignerUndeliverable+1; s++ {
		ss = append(ss, s.String())
	}
	assert.Equal(t, []string{"new", "pending", "rejected", "deleted", "signed", "undeliverable", "SignerStatus(6)"}, ss)
	assert.Equal(t, "CaseFileStatus(-1)", casefiles.CaseFileStatus(-1).String())
	assert.Equal(t, "SignerStatus(-1)", casefiles.SignerStatus(-1).String())
}
