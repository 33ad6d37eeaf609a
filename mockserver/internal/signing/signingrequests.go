package signing

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"unicode/utf8"

	"github.com/signkit/signkit-go/mockserver/internal/format"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// The signing request routes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid):
// a signer's signing request has the id signingRequest.id of the case file's
// JSON, and is changed, sent again and asked for its link under
// {Sign}/api/v1/signingrequests/{id}.

// SigningRequestUpdate is the body of PUT /api/v1/signingrequests/{id}:
// every field may be left out (or null), which leaves it as it is.
type SigningRequestUpdate struct {
	Email                  *string   `json:"email,omitempty"`
	EmailSubject           *string   `json:"emailSubject,omitempty"`
	EmailText              *string   `json:"emailText,omitempty"`
	ReminderEmailSubject   *string   `json:"reminderEmailSubject,omitempty"`
	ReminderEmailText      *string   `json:"reminderEmailText,omitempty"`
	CompletedEmailSubject  *string   `json:"completedEmailSubject,omitempty"`
	CompletedEmailText     *string   `json:"completedEmailText,omitempty"`
	EmailFormat            *string   `json:"emailFormat,omitempty"`
	SuccessURL             *string   `json:"successUrl,omitempty"`
	FailURL                *string   `json:"failUrl,omitempty"`
	ReminderInterval       *int      `json:"reminderInterval,omitempty"`
	AccessControl          *bool     `json:"accessControl,omitempty"`
	EnableInsecureSigning  *bool     `json:"enableInsecureSigning,omitempty"`
	InsecureSigningMethods *[]string `json:"insecureSigningMethods,omitempty"`
}

// SigningRequestShapes answers the JSON shapes of the signing request
// routes, by the name the OpenAPI description gives them.
func SigningRequestShapes() map[string]any {
	return map[string]any{"SigningRequest": signingRequestJSON{}, "SigningRequestUpdate": SigningRequestUpdate{}}
}

// The limits of a signing request's fields, as on a Send signer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields).
const (
	minRequestText = 5 // each email text
	minRequestURL  = 5 // successUrl, failUrl
)

// check answers every problem of u as a 422 error, nil when there is none.
func (u *SigningRequestUpdate) check() error {
	var p wire.Problems
	if u.Email != nil {
		if !format.Email(*u.Email) {
			p.Add("email", "must be an email address")
		}
	}
	for _, t := range []struct {
		name string
		v    *string
	}{{"emailSubject", u.EmailSubject}, {"emailText", u.EmailText}, {"reminderEmailSubject", u.ReminderEmailSubject},
		{"reminderEmailText", u.ReminderEmailText}, {"completedEmailSubject", u.CompletedEmailSubject},
		{"completedEmailText", u.CompletedEmailText}} {
		if t.v != nil && utf8.RuneCountInString(*t.v) < minRequestText {
			p.Add(t.name, "must be at least %d characters", minRequestText)
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"successUrl", u.SuccessURL}, {"failUrl", u.FailURL}} {
		if f.v == nil {
			continue
		}
		if pu, err := url.Parse(*f.v); err != nil || !pu.IsAbs() || pu.Host == "" || len(*f.v) < minRequestURL {
			p.Add(f.name, "must be an absolute URL of at least %d characters", minRequestURL)
		}
	}
	if u.EmailFormat != nil && *u.EmailFormat != "text" && *u.EmailFormat != "html" {
		p.Add("emailFormat", "must be text or html")
	}
	if u.ReminderInterval != nil && *u.ReminderInterval < 1 {
		p.Add("reminderInterval", "must be at least 1 (days)")
	}
	if u.InsecureSigningMethods != nil {
		for _, m := range *u.InsecureSigningMethods {
			if !slices.Contains([]string{"text", "draw", "image"}, m) {
				p.Add("insecureSigningMethods", "%q is not one of text, draw, image", m)
			}
		}
	}
	return p.Err()
}

// apply writes u's fields into sg; call with the store's write lock held.
func (u *SigningRequestUpdate) apply(sg *Signer) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&sg.Email, u.Email)
	set(&sg.Texts.RequestSubject, u.EmailSubject)
	set(&sg.Texts.RequestText, u.EmailText)
	set(&sg.Texts.ReminderSubject, u.ReminderEmailSubject)
	set(&sg.Texts.ReminderText, u.ReminderEmailText)
	set(&sg.Texts.CompletedSubject, u.CompletedEmailSubject)
	set(&sg.Texts.CompletedText, u.CompletedEmailText)
	set(&sg.EmailFormat, u.EmailFormat)
	set(&sg.SuccessURL, u.SuccessURL)
	set(&sg.FailURL, u.FailURL)
	if u.ReminderInterval != nil {
		sg.ReminderInterval = *u.ReminderInterval
	}
	if u.AccessControl != nil {
		sg.AccessControl = *u.AccessControl
	}
	if u.EnableInsecureSigning != nil {
		sg.EnableInsecureSigning = *u.EnableInsecureSigning
	}
	if u.InsecureSigningMethods != nil {
		sg.InsecureSigningMethods = slices.Clone(*u.InsecureSigningMethods)
	}
}

// lookupRequest answers the case file and signer of a signing request
// (nil, nil when there is none).
func (s *state) lookupRequest(requestID int64) (*CaseFile, *Signer) {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	for _, cf := range s.cases.files {
		for _, sg := range cf.Signers {
			if sg.RequestID == requestID {
				return cf, sg
			}
		}
	}
	return nil, nil
}

// requestFor answers the case file and signer of the signing request of
// the route's {id}, when the user may read the case file: 404 for an
// unknown request or one of another customer, 403 for another user's case
// file, as the case file routes answer.
func (s *state) requestFor(r *http.Request) (*CaseFile, *Signer, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return nil, nil, err
	}
	cf, sg := s.lookupRequest(id)
	if sg == nil {
		return nil, nil, wire.NotFound("no signing request %d", id)
	}
	if _, err := s.cases.access(cf.ID, userFrom(r)); err != nil {
		if ae := (*wire.Error)(nil); errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return nil, nil, wire.NotFound("no signing request %d", id)
		}
		return nil, nil, err
	}
	return cf, sg, nil
}

// requestView answers the JSON of a signer's signing request.
func (s *state) requestView(sg *Signer) signingRequestJSON {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	return signerView(sg).SigningRequest
}

// HandleSigningRequestLink is GET {Sign}/api/v1/signingrequests/{id}/link:
// ["<the signer's signing page URL>"]
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid).
// A case file that was anonymized has no links any more: 410.
func (s *Service) HandleSigningRequestLink(w http.ResponseWriter, r *http.Request) error {
	_, sg, err := s.requestFor(r)
	if err != nil {
		return err
	}
	s.cases.mu.RLock()
	token := sg.Token
	s.cases.mu.RUnlock()
	if token == "" {
		return &wire.Error{Status: http.StatusGone, Code: "gone", Message: "the signing request has no signing link any more"}
	}
	wire.WriteJSON(w, http.StatusOK, []string{SigningPageURL(wire.BaseURL(r), token)})
	return nil
}

// HandleUpdateSigningRequest is PUT {Sign}/api/v1/signingrequests/{id}: the
// fields the body gives change, the others stay; 200 with the signing request.
// A field that breaks the Send rules is a 422 and nothing changes; a signer who
// signed, rejected or was deleted, or a case file that is no longer new or
// pending, is a 409. An email change sends no email: later emails go to the new
// address, and a signer who was undeliverable is pending again. On a pending
// signer with an email, an email change or a new reminderInterval plans the
// next reminder reminderInterval days from the update
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#signing-requests).
func (s *Service) HandleUpdateSigningRequest(w http.ResponseWriter, r *http.Request) error {
	cf, sg, err := s.requestFor(r)
	if err != nil {
		return err
	}
	var u SigningRequestUpdate
	if err := wire.DecodeBody(w, r, s.cfg.MaxBodyBytes, &u); err != nil {
		return err
	}
	if err := u.check(); err != nil {
		return err
	}
	if err := s.sim.updateRequest(cf, sg, &u); err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, s.requestView(sg))
	return nil
}

// requestRefusal answers the 409 of a change to sg's request, or nil;
// call with the simulation lock or the store's lock held.
func requestRefusal(cf *CaseFile, sg *Signer, what string) error {
	switch {
	case cf.Status != cfNew && cf.Status != cfPending:
		return wire.Conflict("case file %d is %s: %s needs a new or pending case file", cf.ID, caseFileStatusName(cf.Status), what)
	case sg.Status == sgSigned || sg.Status == sgRejected || sg.Status == sgDeleted:
		return wire.Conflict("signer %d is %s: %s is not possible", sg.ID, signerStatusName(sg.Status), what)
	}
	return nil
}

// updateRequest applies an update to a signer's request (see
// HandleUpdateSigningRequest).
func (s *simulation) updateRequest(cf *CaseFile, sg *Signer, u *SigningRequestUpdate) error {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	if err := requestRefusal(cf, sg, "changing the signing request"); err != nil {
		return err
	}
	now := s.Now()
	emailChanged := u.Email != nil && *u.Email != sg.Email
	intervalChanged := u.ReminderInterval != nil && *u.ReminderInterval != sg.ReminderInterval
	s.write(func() {
		u.apply(sg)
		if emailChanged && sg.Status == sgUndeliverable {
			sg.Status = sgPending
		}
		cf.Updated = now
	})
	if sg.Status == sgPending && cf.Status == cfPending && (emailChanged || intervalChanged) {
		s.clock.Cancel(sg.reminder)
		s.scheduleReminder(cf, sg)
	}
	return nil
}

// HandleResendSigningRequest is PATCH {Sign}/api/v1/signingrequests/{id}/send:
// the request email goes to the signer again, at the request's current address,
// with sign.signer.requestSent; 204. The next reminder follows reminderInterval
// days after it. Only a signer who is asked to sign now (pending, or
// undeliverable: the address may have been fixed on the mailbox's side) and has
// an email can be sent it: 409 otherwise
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#signing-requests).
func (s *Service) HandleResendSigningRequest(w http.ResponseWriter, r *http.Request) error {
	cf, sg, err := s.requestFor(r)
	if err != nil {
		return err
	}
	if err := s.sim.resendRequest(cf, sg); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ResendSigningRequest sends a signer's request email again, as PATCH
// {Sign}/api/v1/signingrequests/{id}/send does, for the dashboard.
func (c *Control) ResendSigningRequest(caseFileID, signerID int64) error {
	cf, sg := c.lookupSigner(caseFileID, signerID)
	switch {
	case cf == nil:
		return wire.NotFound("no case file %d", caseFileID)
	case sg == nil:
		return wire.NotFound("case file %d has no signer %d", caseFileID, signerID)
	}
	return c.sim.resendRequest(cf, sg)
}

// ChangeSignerEmail changes a signer's email as PUT
// {Sign}/api/v1/signingrequests/{id} with an email does, for the
// dashboard: a 422 for an address that is not one, a 409 when the state
// refuses it.
func (c *Control) ChangeSignerEmail(caseFileID, signerID int64, email string) error {
	cf, sg := c.lookupSigner(caseFileID, signerID)
	switch {
	case cf == nil:
		return wire.NotFound("no case file %d", caseFileID)
	case sg == nil:
		return wire.NotFound("case file %d has no signer %d", caseFileID, signerID)
	}
	u := &SigningRequestUpdate{Email: &email}
	if err := u.check(); err != nil {
		return err
	}
	return c.sim.updateRequest(cf, sg, u)
}

// resendRequest sends sg's request email again (see
// HandleResendSigningRequest).
func (s *simulation) resendRequest(cf *CaseFile, sg *Signer) error {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	if err := resendRefusal(cf, sg); err != nil {
		return err
	}
	if sg.Status == sgUndeliverable {
		// A new attempt: the signer is asked to sign again, so reminders
		// follow; a new bounce marks them undeliverable again.
		s.write(func() { sg.Status = sgPending })
	}
	s.emailSigner(cf, sg, "request")
	s.emitSigner(cf, sg, evSignerRequestSent)
	s.clock.Cancel(sg.reminder)
	s.scheduleReminder(cf, sg)
	s.write(func() { cf.Updated = s.Now() })
	return nil
}

// resendRefusal answers the 409 of sending sg's request again, or nil; call
// with the simulation lock or the store's lock held.
func resendRefusal(cf *CaseFile, sg *Signer) error {
	switch {
	case cf.Status != cfPending:
		return wire.Conflict("case file %d is %s: the request email goes out only while it is pending", cf.ID, caseFileStatusName(cf.Status))
	case sg.Status != sgPending && sg.Status != sgUndeliverable:
		return wire.Conflict("signer %d is %s: only a signer asked to sign can be sent the request again", sg.ID, signerStatusName(sg.Status))
	case sg.Email == "":
		return wire.Conflict("signer %d has no email: give the signing request one first, or hand out its link", sg.ID)
	}
	return nil
}
