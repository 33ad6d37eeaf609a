// Package dashboard is the mock's dashboard at /mock/ui: server-rendered
// pages (no JavaScript needed) of the inbox of sent emails, the case files
// with buttons for their signers' actions, the webhook subscriptions with
// every delivery attempt and a replay button, and the clock with an
// advance control (docs/mockserver.md, "Dashboard"). It reaches the
// services only through the callbacks of its Config.
package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhook"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Config connects the dashboard to the services.
type Config struct {
	Emails        func() []signing.Email
	CaseFiles     func() []signing.CaseFileView
	SignerAction  func(caseFileID, signerID int64, action string) error
	Subscriptions func() []webhook.View
	Deliveries    func() []webhook.Delivery
	Replay        func(subscriptionID, eventID string) error
	Now           func() time.Time
	Manual        bool // the clock moves only when Advance moves it
	Advance       func(time.Duration)
	MaxBodyBytes  int64
}

// Dashboard serves the pages of /mock/ui.
type Dashboard struct{ cfg Config }

// New answers the dashboard of cfg.
func New(cfg Config) *Dashboard { return &Dashboard{cfg: cfg} }

// Actions are the signer actions the case files view offers, as the
// control API names them.
var actions = []string{signing.ActionRequestOpened, signing.ActionOpen, signing.ActionSign, signing.ActionReject,
	signing.ActionBounce, signing.ActionUndeliverable, signing.ActionDelete}

// view is what every page renders: the layout's fields, the nav, a note
// of what the last POST did, and the view's own data.
type view struct {
	Lang, Title, Active, Note string
	NoteIsError               bool
	Data                      any
}

// render writes a view page.
func (d *Dashboard) render(w http.ResponseWriter, r *http.Request, status int, active, title string, data any) error {
	v := view{Lang: "en", Title: title + " · signkit mock", Active: active, Data: data,
		Note: r.URL.Query().Get("note"), NoteIsError: r.URL.Query().Get("error") == "1"}
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

// HandleInbox is GET /mock/ui and GET /mock/ui/emails: the sent emails,
// newest first.
func (d *Dashboard) HandleInbox(w http.ResponseWriter, r *http.Request) error {
	mails := d.cfg.Emails()
	slices.Reverse(mails)
	return d.render(w, r, http.StatusOK, "emails", "Inbox", mails)
}

// caseFilesData fills the case files view.
type caseFilesData struct {
	CaseFiles []signing.CaseFileView
	Actions   []string
}

// HandleCaseFiles is GET /mock/ui/casefiles.
func (d *Dashboard) HandleCaseFiles(w http.ResponseWriter, r *http.Request) error {
	return d.render(w, r, http.StatusOK, "casefiles", "Case files", caseFilesData{CaseFiles: d.cfg.CaseFiles(), Actions: actions})
}

// HandleSignerAction is POST /mock/ui/casefiles/{id}/signers/{signerId}/{action}:
// the control API's signer action, then 303 to the case files view with
// its outcome.
func (d *Dashboard) HandleSignerAction(w http.ResponseWriter, r *http.Request) error {
	cf, err1 := strconv.ParseInt(r.PathValue("id"), 10, 64)
	sg, err2 := strconv.ParseInt(r.PathValue("signerId"), 10, 64)
	if err1 != nil || err2 != nil {
		return wire.NotFound("no case file %q with signer %q", r.PathValue("id"), r.PathValue("signerId"))
	}
	action := r.PathValue("action")
	if err := d.cfg.SignerAction(cf, sg, action); err != nil {
		var ae *wire.Error
		if !errors.As(err, &ae) {
			return err
		}
		back(w, r, "/mock/ui/casefiles", fmt.Sprintf("%s for signer %d of case file %d: %s", action, sg, cf, ae.Message), true)
		return nil
	}
	back(w, r, "/mock/ui/casefiles", fmt.Sprintf("%s: done for signer %d of case file %d", action, sg, cf), false)
	return nil
}

// webhooksData fills the webhooks view.
type webhooksData struct {
	Subscriptions []webhook.View
	Deliveries    []webhook.Delivery
}

// HandleWebhooks is GET /mock/ui/webhooks: the subscriptions and every
// delivery attempt, newest first.
func (d *Dashboard) HandleWebhooks(w http.ResponseWriter, r *http.Request) error {
	ds := d.cfg.Deliveries()
	slices.Reverse(ds)
	return d.render(w, r, http.StatusOK, "webhooks", "Webhooks", webhooksData{Subscriptions: d.cfg.Subscriptions(), Deliveries: ds})
}

// HandleReplay is POST /mock/ui/webhooks/replay with subscriptionId and
// eventId: the event is delivered again (webhook.Service.Replay).
func (d *Dashboard) HandleReplay(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, d.cfg.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		return wire.BadRequest("the body must be a form with subscriptionId and eventId")
	}
	sub, ev := r.PostForm.Get("subscriptionId"), r.PostForm.Get("eventId")
	if err := d.cfg.Replay(sub, ev); err != nil {
		back(w, r, "/mock/ui/webhooks", "replay: "+err.Error(), true)
		return nil
	}
	back(w, r, "/mock/ui/webhooks", "replay of event "+ev+" to subscription "+sub+" started", false)
	return nil
}

// clockData fills the clock view.
type clockData struct {
	Now    time.Time
	Manual bool
	Units  []string
	Error  string
}

// units are the advance control's units.
var units = map[string]time.Duration{"seconds": time.Second, "minutes": time.Minute, "hours": time.Hour, "days": 24 * time.Hour}

// HandleClock is GET /mock/ui/clock.
func (d *Dashboard) HandleClock(w http.ResponseWriter, r *http.Request) error {
	return d.renderClock(w, r, http.StatusOK, "")
}

func (d *Dashboard) renderClock(w http.ResponseWriter, r *http.Request, status int, problem string) error {
	return d.render(w, r, status, "clock", "Clock", clockData{Now: d.cfg.Now().UTC(), Manual: d.cfg.Manual,
		Units: []string{"seconds", "minutes", "hours", "days"}, Error: problem})
}

// HandleAdvance is POST /mock/ui/clock with amount and unit: mock time
// moves forward and everything that falls due runs; bad input is a 422
// page.
func (d *Dashboard) HandleAdvance(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, d.cfg.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		return d.renderClock(w, r, http.StatusUnprocessableEntity, "The form could not be read.")
	}
	n, err := strconv.ParseFloat(r.PostForm.Get("amount"), 64)
	unit, ok := units[r.PostForm.Get("unit")]
	const maxAdvance = 100 * 365 * 24 * time.Hour
	if err != nil || !ok || n <= 0 || n*float64(unit) > float64(maxAdvance) {
		return d.renderClock(w, r, http.StatusUnprocessableEntity,
			"Give a positive amount and a unit (seconds, minutes, hours or days), at most 100 years.")
	}
	dur := time.Duration(n * float64(unit))
	d.cfg.Advance(dur)
	back(w, r, "/mock/ui/clock", "advanced by "+dur.String(), false)
	return nil
}
