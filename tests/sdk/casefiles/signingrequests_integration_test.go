package casefiles_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// signingRequestCase creates, on a mock with a manual clock, a case file
// in which Ada (reminders every 2 days) and Cleo (no email) sign first and
// Bob second, and answers its details.
func signingRequestCase(t *testing.T) (*mockserver.Server, *signkit.Client, *casefiles.Details) {
	t.Helper()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Now()))
	cf := &casefiles.CaseFile{
		Title: "Lease",
		Signers: []casefiles.Signer{
			{Name: "Ada Tenant", Email: "ada@exmaple.com", ReminderInterval: 2},
			{Name: "Bob Landlord", Email: "bob@example.com", SignOrder: 1},
			{Name: "Cleo Witness"},
		},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}
	job, err := client.CaseFiles.Create(ctx(t), cf, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease")))
	require.NoError(t, err)
	srv.Advance(time.Minute)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	require.Len(t, d.Signers, 3)
	return srv, client, d
}

// signerNamed answers the signer of d with that name.
func signerNamed(t *testing.T, d *casefiles.Details, name string) casefiles.SignerDetails {
	t.Helper()
	for _, s := range d.Signers {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no signer %q", name)
	return casefiles.SignerDetails{}
}

// A bounced signer is fixed: the email changes, the signer is pending
// again, the request email goes to the new address, and so do reminders.
func TestIntegrationFixBouncedSigner(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	require.NoError(t, srv.SignerAction(d.ID, ada.ID, "undeliverable"))

	require.NoError(t, client.CaseFiles.UpdateSigningRequest(ctx(t), ada.SigningRequestID, &casefiles.SigningRequestUpdate{
		Email: signkit.Ptr("ada@example.com"), EmailSubject: signkit.Ptr("Your lease, once more"),
		EmailFormat: signkit.Ptr(casefiles.EmailFormatHTML), EnableInsecureSigning: signkit.Ptr(true),
		InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw}}))
	assert.Empty(t, srv.EmailsTo("ada@example.com"), "an update sends no email")
	got, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	ada2 := signerNamed(t, got, "Ada Tenant")
	assert.Equal(t, "ada@example.com", ada2.Email)
	assert.Equal(t, casefiles.SignerPending, ada2.Status, "undeliverable cleared")
	assert.Equal(t, casefiles.EmailFormatHTML, ada2.EmailFormat)
	assert.True(t, ada2.EnableInsecureSigning)
	assert.Equal(t, []casefiles.InsecureSigningMethod{casefiles.InsecureDraw}, ada2.InsecureSigningMethods)

	require.NoError(t, client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID))
	sent := srv.EmailsTo("ada@example.com")
	require.Len(t, sent, 1)
	assert.Equal(t, "Your lease, once more", sent[0].Subject)
	link, err := client.CaseFiles.SigningRequestLink(ctx(t), ada.SigningRequestID)
	require.NoError(t, err)
	assert.Equal(t, link, sent[0].SigningLink)

	srv.Advance(2*24*time.Hour + time.Minute)
	sent = srv.EmailsTo("ada@example.com")
	require.Len(t, sent, 2, "the reminder goes to the new address")
	assert.Contains(t, sent[1].Subject, "Reminder")
	assert.Len(t, srv.EmailsTo("ada@exmaple.com"), 1, "the old address got only the first request")
}

// A resend counts toward the reminder schedule: the next reminder comes
// reminderInterval days after it, not after the first request.
func TestIntegrationResendMovesTheNextReminder(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	srv.Advance(24 * time.Hour)
	require.NoError(t, client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID))
	require.Len(t, srv.EmailsTo("ada@exmaple.com"), 2)
	srv.Advance(24*time.Hour + time.Minute) // two days after the first request
	assert.Len(t, srv.EmailsTo("ada@exmaple.com"), 2, "no reminder yet")
	srv.Advance(24 * time.Hour) // two days after the resend
	sent := srv.EmailsTo("ada@exmaple.com")
	require.Len(t, sent, 3)
	assert.Contains(t, sent[2].Subject, "Reminder")

	var requestSent int
	for _, ev := range srv.Events(0) {
		if ev.Type == "sign.signer.requestSent" && ev.CaseFileID == d.ID {
			requestSent++
		}
	}
	assert.Equal(t, 2, requestSent, "Ada's first request and her resend (Bob's round has not started, Cleo has no email)")
}

// The refusals: a signer who signed or rejected cannot be changed; a
// signer who is not asked to sign now, or has no email, cannot be sent the
// request; an unknown request is not found.
func TestIntegrationSigningRequestRefusals(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada, bob, cleo := signerNamed(t, d, "Ada Tenant"), signerNamed(t, d, "Bob Landlord"), signerNamed(t, d, "Cleo Witness")
	u := &casefiles.SigningRequestUpdate{ReminderInterval: signkit.Ptr(5)}

	assert.ErrorIs(t, client.CaseFiles.ResendSigningRequest(ctx(t), bob.SigningRequestID), signkit.ErrConflict, "not activated")
	assert.ErrorIs(t, client.CaseFiles.ResendSigningRequest(ctx(t), cleo.SigningRequestID), signkit.ErrConflict, "no email")
	require.NoError(t, client.CaseFiles.UpdateSigningRequest(ctx(t), bob.SigningRequestID, u), "a signer not yet activated can be changed")

	require.NoError(t, srv.SignerAction(d.ID, ada.ID, "sign"))
	assert.ErrorIs(t, client.CaseFiles.UpdateSigningRequest(ctx(t), ada.SigningRequestID, u), signkit.ErrConflict, "signed")
	assert.ErrorIs(t, client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID), signkit.ErrConflict, "signed")
	_, err := client.CaseFiles.SigningRequestLink(ctx(t), ada.SigningRequestID)
	assert.NoError(t, err, "a signed signer keeps the link")

	require.NoError(t, srv.SignerAction(d.ID, cleo.ID, "reject"))
	assert.ErrorIs(t, client.CaseFiles.UpdateSigningRequest(ctx(t), cleo.SigningRequestID, u), signkit.ErrConflict, "rejected")

	assert.ErrorIs(t, client.CaseFiles.UpdateSigningRequest(ctx(t), 999999, u), signkit.ErrNotFound)
	assert.ErrorIs(t, client.CaseFiles.ResendSigningRequest(ctx(t), 999999), signkit.ErrNotFound)
	_, err = client.CaseFiles.SigningRequestLink(ctx(t), 999999)
	assert.ErrorIs(t, err, signkit.ErrNotFound)
}

// Another user's case file is refused as the case file routes refuse it:
// 403 within the customer, 404 from another customer.
func TestIntegrationSigningRequestOfAnotherUser(t *testing.T) {
	t.Parallel()
	srv, _, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	for _, tt := range []struct {
		spec mockserver.UserSpec
		want error
	}{
		{mockserver.UserSpec{Name: "Colleague", Email: "colleague@example.com"}, signkit.ErrForbidden},
		{mockserver.UserSpec{Name: "Stranger", Email: "stranger@example.com", NewCustomer: true}, signkit.ErrNotFound},
	} {
		creds, err := srv.AddUser(tt.spec)
		require.NoError(t, err)
		cfg := srv.Config()
		cfg.Credentials = creds.Credentials()
		other, err := signkit.NewClient(cfg)
		require.NoError(t, err)
		_, err = other.CaseFiles.SigningRequestLink(ctx(t), ada.SigningRequestID)
		assert.ErrorIs(t, err, tt.want, tt.spec.Name)
		err = other.CaseFiles.UpdateSigningRequest(ctx(t), ada.SigningRequestID, &casefiles.SigningRequestUpdate{Email: signkit.Ptr("x@example.com")})
		assert.ErrorIs(t, err, tt.want, tt.spec.Name)
		assert.ErrorIs(t, other.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID), tt.want, tt.spec.Name)
	}
	assert.Len(t, srv.EmailsTo("ada@exmaple.com"), 1, "no one else's resend went out")
}

// The link is the signer's signing page, the one the job's result gave.
func TestIntegrationSigningRequestLink(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	for _, s := range d.Signers {
		link, err := client.CaseFiles.SigningRequestLink(ctx(t), s.SigningRequestID)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(link, srv.URL()+"/public/sign/"), link)
		resp, err := http.Get(link)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, s.Name)
	}
}

// A resend whose connection drops after the mock sent the email is not
// sent again: the error says the outcome is unknown and one email went.
func TestIntegrationResendDroppedConnection(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	control(t, srv, "/mock/faults", map[string]any{
		"method": "PATCH", "path": "/api/v1/signingrequests/*", "drop": true, "phase": "after", "times": 1,
	})
	err := client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID)
	require.ErrorIs(t, err, signkit.ErrOutcomeUnknown)
	assert.Len(t, srv.EmailsTo("ada@exmaple.com"), 2, "the first request and one resend, not two")
	// The journal records a dropped request once its connection is gone,
	// which may be a moment after the client saw the error.
	patches := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Method == http.MethodPatch {
				n++
			}
		}
		return n
	}
	require.Eventually(t, func() bool { return patches() >= 1 }, 5*time.Second, 10*time.Millisecond, "the PATCH is journaled")
	assert.Equal(t, 1, patches(), "not re-sent")

	// The PUT is re-sent after the same fault, and takes effect once.
	control(t, srv, "/mock/faults", map[string]any{
		"method": "PUT", "path": "/api/v1/signingrequests/*", "drop": true, "phase": "after", "times": 1,
	})
	require.NoError(t, client.CaseFiles.UpdateSigningRequest(ctx(t), ada.SigningRequestID,
		&casefiles.SigningRequestUpdate{Email: signkit.Ptr("ada@example.com")}))
	got, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	assert.Equal(t, "ada@example.com", signerNamed(t, got, "Ada Tenant").Email)
}

// A 503 after the resend reached the mock is an outcome the caller must
// see: the PATCH is not re-sent, and one more email went.
func TestIntegrationResendServiceUnavailable(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	control(t, srv, "/mock/faults", map[string]any{
		"method": "PATCH", "path": "/api/v1/signingrequests/*", "status": 503, "phase": "after", "times": 1,
	})
	err := client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID)
	require.ErrorIs(t, err, signkit.ErrOutcomeUnknown)
	assert.Len(t, srv.EmailsTo("ada@exmaple.com"), 2, "the first request and one resend, not two")
}

// A signer reported undeliverable and sent the request again is asked to
// sign again: pending, and reminded every reminderInterval days from the
// resend.
func TestIntegrationResendToUndeliverableSigner(t *testing.T) {
	t.Parallel()
	srv, client, d := signingRequestCase(t)
	ada := signerNamed(t, d, "Ada Tenant")
	require.NoError(t, srv.SignerAction(d.ID, ada.ID, mockserver.ActionUndeliverable))
	require.NoError(t, client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID))
	got, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	assert.Equal(t, casefiles.SignerPending, signerNamed(t, got, "Ada Tenant").Status)
	srv.Advance(48*time.Hour + time.Minute)
	sent := srv.EmailsTo("ada@exmaple.com")
	require.Len(t, sent, 3, "the request, the resend and a reminder")
	assert.Contains(t, sent[2].Subject, "Reminder")
}
