package casefiles_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

func TestSigningRequestLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, `/api/v1/signingrequests/7/link`, 200, `["https://sign.example/s/abc"]`)
	link, err := e.Client.CaseFiles.SigningRequestLink(ctx(t), 7)
	require.NoError(t, err)
	assert.Equal(t, "https://sign.example/s/abc", link)
	assert.Equal(t, "Bearer tok-1", rec.last().Auth)
	assert.Equal(t, http.MethodGet, rec.last().Method, "GET, as both vendor SDKs call it")

	e.reply(http.MethodGet, signURL, `/api/v1/signingrequests/8/link`, 200, `[]`)
	_, err = e.Client.CaseFiles.SigningRequestLink(ctx(t), 8)
	assert.ErrorContains(t, err, "no link")

	e.reply(http.MethodGet, signURL, `/api/v1/signingrequests/9/link`, 404, `{"statusCode":404,"error":"not_found","message":"no"}`)
	_, err = e.Client.CaseFiles.SigningRequestLink(ctx(t), 9)
	assert.ErrorIs(t, err, signkit.ErrNotFound)
}

// Only the fields an update sets are sent, under the vendor SDKs' names.
func TestUpdateSigningRequestSendsOnlyWhatIsSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		u    casefiles.SigningRequestUpdate
		want string
	}{
		{"email", casefiles.SigningRequestUpdate{Email: signkit.Ptr("ada@example.org")}, `{"email":"ada@example.org"}`},
		{"texts", casefiles.SigningRequestUpdate{EmailSubject: signkit.Ptr("Please sign"), EmailText: signkit.Ptr("Dear Ada"),
			ReminderEmailSubject: signkit.Ptr("Reminder"), ReminderEmailText: signkit.Ptr("Still waiting"),
			CompletedEmailSubject: signkit.Ptr("All done"), CompletedEmailText: signkit.Ptr("Thank you")},
			`{"emailSubject":"Please sign","emailText":"Dear Ada","reminderEmailSubject":"Reminder","reminderEmailText":"Still waiting",
			  "completedEmailSubject":"All done","completedEmailText":"Thank you"}`},
		{"settings", casefiles.SigningRequestUpdate{EmailFormat: signkit.Ptr(casefiles.EmailFormatHTML),
			SuccessURL: signkit.Ptr("https://example.org/ok"), FailURL: signkit.Ptr("https://example.org/no"),
			ReminderInterval: signkit.Ptr(3), AccessControl: signkit.Ptr(false), EnableInsecureSigning: signkit.Ptr(true),
			InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw}},
			`{"emailFormat":"html","successUrl":"https://example.org/ok","failUrl":"https://example.org/no","reminderInterval":3,
			  "accessControl":false,"enableInsecureSigning":true,"insecureSigningMethods":["draw"]}`},
		{"values this package does not know are left to the platform", casefiles.SigningRequestUpdate{
			EmailFormat:            signkit.Ptr(casefiles.EmailFormat("markdown")),
			InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureText, "voice"}},
			`{"emailFormat":"markdown","insecureSigningMethods":["text","voice"]}`},
		{"false and empty are sent", casefiles.SigningRequestUpdate{AccessControl: signkit.Ptr(false),
			InsecureSigningMethods: []casefiles.InsecureSigningMethod{}}, `{"accessControl":false,"insecureSigningMethods":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(http.MethodPut, signURL, `/api/v1/signingrequests/7`, 200, `{"id":7}`)
			require.NoError(t, e.Client.CaseFiles.UpdateSigningRequest(ctx(t), 7, &tt.u))
			got := rec.last()
			assert.Equal(t, "Bearer tok-1", got.Auth)
			assert.Contains(t, got.ContentType, "application/json")
			assert.JSONEq(t, tt.want, string(got.Body))
		})
	}
}

// A bad update is a *ValidationError listing every problem, and nothing is
// sent.
func TestUpdateSigningRequestRefusesBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		id     int64
		u      *casefiles.SigningRequestUpdate
		fields []string
	}{
		{"nil", 7, nil, []string{"update"}},
		{"nothing set", 7, &casefiles.SigningRequestUpdate{}, []string{"update"}},
		{"bad id", 0, &casefiles.SigningRequestUpdate{Email: signkit.Ptr("a@example.org")}, []string{"signingRequestID"}},
		{"email", 7, &casefiles.SigningRequestUpdate{Email: signkit.Ptr("not an address")}, []string{"email"}},
		{"empty email", 7, &casefiles.SigningRequestUpdate{Email: signkit.Ptr("")}, []string{"email"}},
		{"short texts", 7, &casefiles.SigningRequestUpdate{EmailSubject: signkit.Ptr("Hi"), CompletedEmailText: signkit.Ptr("")},
			[]string{"emailSubject", "completedEmailText"}},
		{"urls", 7, &casefiles.SigningRequestUpdate{SuccessURL: signkit.Ptr("/relative"), FailURL: signkit.Ptr("")},
			[]string{"successUrl", "failUrl"}},
		{"interval", 7, &casefiles.SigningRequestUpdate{ReminderInterval: signkit.Ptr(0)}, []string{"reminderInterval"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(http.MethodPut, signURL, `/api/v1/signingrequests/.*`, 200, `{}`)
			err := e.Client.CaseFiles.UpdateSigningRequest(ctx(t), tt.id, tt.u)
			require.ErrorIs(t, err, signkit.ErrValidation)
			var ve *casefiles.ValidationError
			require.ErrorAs(t, err, &ve)
			var fields []string
			for _, p := range ve.Problems {
				fields = append(fields, p.Field)
			}
			assert.ElementsMatch(t, tt.fields, fields)
			assert.Zero(t, rec.count(), "nothing sent")
		})
	}
}

// The platform's refusals come back as its errors: 409 for a signer who
// signed, 404 for an unknown request.
func TestUpdateSigningRequestRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodPut, signURL, `/api/v1/signingrequests/7`, 409, `{"statusCode":409,"error":"conflict","message":"signed"}`)
	e.reply(http.MethodPut, signURL, `/api/v1/signingrequests/8`, 404, `{"statusCode":404,"error":"not_found","message":"no"}`)
	u := &casefiles.SigningRequestUpdate{Email: signkit.Ptr("ada@example.org")}
	err := e.Client.CaseFiles.UpdateSigningRequest(ctx(t), 7, u)
	assert.ErrorIs(t, err, signkit.ErrConflict)
	assert.ErrorContains(t, err, "update signing request 7")
	assert.ErrorIs(t, e.Client.CaseFiles.UpdateSigningRequest(ctx(t), 8, u), signkit.ErrNotFound)
}

// The PUT is re-sent after a 503; the PATCH that sends the email is not:
// its error says the outcome is unknown.
func TestSigningRequestRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 2)
	put := e.handle(http.MethodPut, signURL, `/api/v1/signingrequests/7`, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			return jsonResponse(503, `{}`), nil
		}
		return jsonResponse(200, `{"id":7}`), nil
	})
	require.NoError(t, e.Client.CaseFiles.UpdateSigningRequest(ctx(t), 7, &casefiles.SigningRequestUpdate{ReminderInterval: signkit.Ptr(2)}))
	assert.Equal(t, 2, put.count(), "PUT re-sent")

	for _, fail := range []struct {
		name string
		do   func() (*http.Response, error)
	}{
		{"503", func() (*http.Response, error) { return jsonResponse(503, `{}`), nil }},
		{"lost connection", func() (*http.Response, error) { return nil, io.ErrUnexpectedEOF }},
	} {
		e := newEnv(t, 2)
		patch := e.handle(http.MethodPatch, signURL, `/api/v1/signingrequests/7/send`, func(*http.Request, int) (*http.Response, error) {
			return fail.do()
		})
		err := e.Client.CaseFiles.ResendSigningRequest(ctx(t), 7)
		assert.ErrorIs(t, err, signkit.ErrOutcomeUnknown, fail.name)
		assert.Equal(t, 1, patch.count(), "%s: the email is not sent twice", fail.name)
	}
}

func TestResendSigningRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPatch, signURL, `/api/v1/signingrequests/7/send`, 204, ``)
	require.NoError(t, e.Client.CaseFiles.ResendSigningRequest(ctx(t), 7))
	assert.Equal(t, "Bearer tok-1", rec.last().Auth)
	assert.Empty(t, rec.last().Body)

	e.reply(http.MethodPatch, signURL, `/api/v1/signingrequests/8/send`, 409, `{"statusCode":409,"error":"conflict","message":"signed"}`)
	assert.ErrorIs(t, e.Client.CaseFiles.ResendSigningRequest(ctx(t), 8), signkit.ErrConflict)

	err := e.Client.CaseFiles.ResendSigningRequest(ctx(t), -1)
	assert.ErrorIs(t, err, signkit.ErrValidation)
}
