package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// signerIDs reads the {id} and {signerId} of a signer's route.
func signerIDs(r *http.Request) (cf, sg int64, err error) {
	cf, err1 := strconv.ParseInt(r.PathValue("id"), 10, 64)
	sg, err2 := strconv.ParseInt(r.PathValue("signerId"), 10, 64)
	if errors.Join(err1, err2) != nil {
		return 0, 0, wire.NotFound("no case file %q with a signer %q", r.PathValue("id"), r.PathValue("signerId"))
	}
	return cf, sg, nil
}

// requestOutcome answers a signing request change of the dashboard: 303
// to the case files view with a note when it was done or refused (409,
// 422), the case files view with the error (404) for an unknown case file
// or signer.
func (d *Dashboard) requestOutcome(w http.ResponseWriter, r *http.Request, what string, err error) error {
	var ae *wire.Error
	switch {
	case err == nil:
		back(w, r, "/mock/ui/casefiles", what+": done.", false)
		return nil
	case !errors.As(err, &ae):
		return err
	case ae.Status == http.StatusNotFound:
		return d.render(w, r, http.StatusNotFound, "casefiles", "Case files", what+": "+ae.Message+".", d.cfg.CaseFiles())
	}
	back(w, r, "/mock/ui/casefiles", what+": "+ae.Message+".", true)
	return nil
}

// HandleChangeEmail is POST
// /mock/ui/casefiles/{id}/signers/{signerId}/request/email with the form field
// email: the signer's signing request gets that address, as PUT
// /api/v1/signingrequests/{id} does
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#signing-requests),
// then 303 to the case files view. An address that is not one, or a state that
// refuses the change, comes back 303 with the reason.
func (d *Dashboard) HandleChangeEmail(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, d.cfg.MaxBodyBytes)
	cf, sg, err := signerIDs(r)
	if err == nil {
		if perr := r.ParseForm(); perr != nil {
			back(w, r, "/mock/ui/casefiles", "Change email: the form could not be read.", true)
			return nil
		}
		err = d.cfg.ChangeEmail(cf, sg, r.PostForm.Get("email"))
	}
	return d.requestOutcome(w, r, fmt.Sprintf("Change email of signer %d of case file %d", sg, cf), err)
}

// HandleResend is POST /mock/ui/casefiles/{id}/signers/{signerId}/request/resend:
// the signer's request email goes out again, as PATCH
// /api/v1/signingrequests/{id}/send does, then 303 to the case files view
// with the outcome.
func (d *Dashboard) HandleResend(w http.ResponseWriter, r *http.Request) error {
	cf, sg, err := signerIDs(r)
	if err == nil {
		err = d.cfg.Resend(cf, sg)
	}
	return d.requestOutcome(w, r, fmt.Sprintf("Resend to signer %d of case file %d", sg, cf), err)
}
