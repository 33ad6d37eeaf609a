// Package dashboard is the mock's dashboard at /mock/ui: server-rendered pages
// (no JavaScript needed) of the inbox of sent emails, the case files with
// buttons for their signers' actions, the webhook subscriptions with every
// delivery attempt and a replay button, and the clock with an advance control
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
// It reaches the services only through the callbacks of its Config.
package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Config connects the dashboard to the services.
type Config struct {
	Emails        func() []signing.Email        // the outbox, oldest first
	CaseFiles     func() []signing.CaseFileView // every customer's case files
	SignerAction  func(caseFileID, signerID int64, action string) error
	Subscriptions func() []webhooks.View     // never with their secrets
	Deliveries    func() []webhooks.Delivery // the deliveries journal, oldest first
	Replay        func(subscriptionID, eventID string) error
	Now           func() time.Time
	Manual        bool // the clock moves only when Advance moves it
	Advance       func(time.Duration)
	MaxBodyBytes  int64

	// ChangeEmail and Resend are a signer's signing request changed to a
	// new email, and its email sent again (signingrequests.go).
	ChangeEmail func(caseFileID, signerID int64, email string) error
	Resend      func(caseFileID, signerID int64) error
}

// Dashboard serves the pages of /mock/ui.
type Dashboard struct{ cfg Config }

// New answers the dashboard of cfg.
func New(cfg Config) *Dashboard { return &Dashboard{cfg: cfg} }

// maxRows bounds the rows of the inbox and of the delivery attempts: the
// newest are shown (the outbox keeps 10,000 emails).
const maxRows = 500

// view is what every page renders: the layout's fields, the nav, a note
// of what the last POST did, and the view's own data.
type view struct {
	Lang, Title, Heading, Active, Note string
	NoteIsError                        bool
	Data                               any
}

// render writes a view page; note, when not empty, replaces the note of
// the URL and is an error.
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, status int, active, heading, note string, data any) error {
	v := view{Lang: "en", Title: heading + " · signkit mock dashboard", Heading: heading, Active: active, Data: data,
		Note: r.URL.Query().Get("note"), NoteIsError: r.URL.Query().Get("error") == "1"}
	if note != "" {
		v.Note, v.NoteIsError = note, true
	}
	b, err := pages.Render(page, v)
	if err != nil {
		return err
	}
	pages.Write(w, status, b)
	return nil
}

// WriteError writes the dashboard's page of a request it cannot serve (an
// unknown path, a refused request): the nav, the status as the heading and
// message, with status.
func (d *Dashboard) WriteError(w http.ResponseWriter, status int, message string) error {
	v := view{Lang: "en", Title: http.StatusText(status) + " · signkit mock dashboard", Heading: http.StatusText(status),
		Active: "error", Data: message}
	b, err := pages.Render(page, v)
	if err != nil {
		return err
	}
	pages.Write(w, status, b)
	return nil
}

// back answers a POST with 303 to the view, with a note of what happened.
func back(w http.ResponseWriter, r *http.Request, to, note string, failed bool) {
	q := url.Values{"note": {note}}
	if failed {
		q.Set("error", "1")
	}
	http.Redirect(w, r, to+"?"+q.Encode(), http.StatusSeeOther)
}

// rows is a list of the newest entries, newest first, and how many there
// are in all.
type rows[T any] struct {
	List  []T
	Total int
}

// newest answers the last maxRows entries of list, newest first.
func newest[T any](list []T) rows[T] {
	out := rows[T]{Total: len(list), List: slices.Clone(list[max(len(list)-maxRows, 0):])}
	slices.Reverse(out.List)
	return out
}

// HandleInbox is GET /mock/ui and GET /mock/ui/emails: the sent emails,
// newest first.
func (d *Dashboard) HandleInbox(w http.ResponseWriter, r *http.Request) error {
	return d.render(w, r, http.StatusOK, "emails", "Inbox", "", newest(d.cfg.Emails()))
}

// HandleCaseFiles is GET /mock/ui/casefiles: every customer's case files,
// newest first, with their signers and the actions they allow.
func (d *Dashboard) HandleCaseFiles(w http.ResponseWriter, r *http.Request) error {
	return d.render(w, r, http.StatusOK, "casefiles", "Case files", "", d.cfg.CaseFiles())
}

// HandleSignerAction is POST /mock/ui/casefiles/{id}/signers/{signerId}/{action}:
// the control API's signer action, then 303 to the case files view with
// its outcome; an action the state does not allow (409) says why there.
// An unknown case file, signer or action is the case files view with the
// error, answered 404.
func (d *Dashboard) HandleSignerAction(w http.ResponseWriter, r *http.Request) error {
	cf, err1 := strconv.ParseInt(r.PathValue("id"), 10, 64)
	sg, err2 := strconv.ParseInt(r.PathValue("signerId"), 10, 64)
	action := r.PathValue("action")
	err := errors.Join(err1, err2)
	if err == nil {
		err = d.cfg.SignerAction(cf, sg, action)
	} else {
		err = wire.NotFound("no case file %q with a signer %q", r.PathValue("id"), r.PathValue("signerId"))
	}
	var ae *wire.Error
	switch {
	case err == nil:
		back(w, r, "/mock/ui/casefiles", fmt.Sprintf("%s: done for signer %d of case file %d.", action, sg, cf), false)
		return nil
	case !errors.As(err, &ae):
		return err
	case ae.Status == http.StatusNotFound:
		return d.render(w, r, http.StatusNotFound, "casefiles", "Case files", action+": "+ae.Message+".", d.cfg.CaseFiles())
	}
	back(w, r, "/mock/ui/casefiles", fmt.Sprintf("%s for signer %d of case file %d: %s.", action, sg, cf, ae.Message), true)
	return nil
}

// webhooksData fills the webhooks view.
type webhooksData struct {
	Subscriptions []webhooks.View
	Deliveries    rows[webhooks.Delivery]
}

// webhooks answers the webhooks view's data.
func (d *Dashboard) webhooks() webhooksData {
	return webhooksData{Subscriptions: d.cfg.Subscriptions(), Deliveries: newest(d.cfg.Deliveries())}
}

// HandleWebhooks is GET /mock/ui/webhooks: the subscriptions and every
// delivery attempt, newest first.
func (d *Dashboard) HandleWebhooks(w http.ResponseWriter, r *http.Request) error {
	return d.render(w, r, http.StatusOK, "webhooks", "Webhooks", "", d.webhooks())
}

// HandleReplay is POST /mock/ui/webhooks/replay with subscriptionId and
// eventId: the event is delivered again (webhooks.Service.Replay), then 303
// to the webhooks view with the outcome. A body that is not such a form is
// the webhooks view with the error, answered 422.
func (d *Dashboard) HandleReplay(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, d.cfg.MaxBodyBytes)
	err := r.ParseForm()
	sub, ev := r.PostForm.Get("subscriptionId"), r.PostForm.Get("eventId")
	if err != nil || sub == "" || ev == "" {
		return d.render(w, r, http.StatusUnprocessableEntity, "webhooks", "Webhooks",
			"Replay needs a form with a subscriptionId and an eventId.", d.webhooks())
	}
	if err := d.cfg.Replay(sub, ev); err != nil {
		var ae *wire.Error
		if !errors.As(err, &ae) {
			return err
		}
		back(w, r, "/mock/ui/webhooks", "Replay of event "+ev+": "+ae.Message+".", true)
		return nil
	}
	back(w, r, "/mock/ui/webhooks", "Replay of event "+ev+" to subscription "+sub+" started: its attempts appear below.", false)
	return nil
}

// clockData fills the clock view.
type clockData struct {
	Now          time.Time
	Manual       bool
	Units        []string
	Amount, Unit string // the form's values
	Error        string
}

// units are the advance control's units.
var units = map[string]time.Duration{"seconds": time.Second, "minutes": time.Minute, "hours": time.Hour, "days": 24 * time.Hour}

// maxAdvance bounds one advance.
const maxAdvance = 100 * 365 * 24 * time.Hour

// HandleClock is GET /mock/ui/clock.
func (d *Dashboard) HandleClock(w http.ResponseWriter, r *http.Request) error {
	return d.renderClock(w, r, http.StatusOK, "1", "hours", "")
}

func (d *Dashboard) renderClock(w http.ResponseWriter, r *http.Request, status int, amount, unit, problem string) error {
	return d.render(w, r, status, "clock", "Clock", "", clockData{Now: d.cfg.Now().UTC(), Manual: d.cfg.Manual,
		Units: []string{"seconds", "minutes", "hours", "days"}, Amount: amount, Unit: unit, Error: problem})
}

// HandleAdvance is POST /mock/ui/clock with amount and unit: mock time
// moves forward and everything that falls due runs, then 303 to the clock
// view; bad input is the clock view with the error, answered 422.
func (d *Dashboard) HandleAdvance(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, d.cfg.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		return d.renderClock(w, r, http.StatusUnprocessableEntity, "1", "hours", "The form could not be read.")
	}
	amount, unitName := strings.TrimSpace(r.PostForm.Get("amount")), r.PostForm.Get("unit")
	n, err := strconv.ParseFloat(amount, 64)
	unit, ok := units[unitName]
	if !ok {
		unitName = "hours"
	}
	if err != nil || !ok || !(n > 0) || n*float64(unit) > float64(maxAdvance) {
		return d.renderClock(w, r, http.StatusUnprocessableEntity, amount, unitName,
			"Give a positive amount and a unit (seconds, minutes, hours or days), at most 100 years.")
	}
	dur := time.Duration(n * float64(unit))
	if dur <= 0 {
		return d.renderClock(w, r, http.StatusUnprocessableEntity, amount, unitName,
			"The amount is less than a nanosecond: give a larger one.")
	}
	d.cfg.Advance(dur)
	back(w, r, "/mock/ui/clock", "Advanced by "+dur.String()+".", false)
	return nil
}
