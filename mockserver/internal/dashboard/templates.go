package dashboard

import (
	"html/template"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
)

// pageHTML is every view of the dashboard inside the pages' layout: the
// nav, the note of the last action, and the view named by .Active.
const pageHTML = `{{define "main"}}<style>
main{max-width:76rem}
nav.tabs{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1.5rem;padding:0;list-style:none}
nav.tabs a{display:inline-flex;align-items:center;min-height:2.75rem;padding:.25rem 1rem;border-radius:4px;border:2px solid #1d4ed8;text-decoration:none;font-weight:600}
nav.tabs a[aria-current=page]{background:#1d4ed8;color:#fff}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem;font-size:.95rem}
th,td{text-align:left;vertical-align:top;padding:.5rem;border-bottom:1px solid #e5e7eb;overflow-wrap:break-word}
th{background:#f9fafb;white-space:nowrap}
.mono,td.text{overflow-wrap:anywhere}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
.acts{display:flex;flex-wrap:wrap;gap:.35rem}
.acts button,button.replay{min-height:2.75rem;padding:.25rem .75rem;font-size:.9rem;white-space:nowrap}
.badge{display:inline-block;margin-left:.5rem;padding:.1rem .6rem;border-radius:999px;background:#eef2ff;font-size:.9rem;font-weight:600;vertical-align:middle}
.badge[data-status=completed]{background:#ecfdf5;color:#047857}
.badge[data-status=rejected],.badge[data-status=expired],.badge[data-status=failed]{background:#fef2f2;color:#b00020}
.ok{color:#047857;font-weight:600}.bad{color:#b00020;font-weight:600}
.note-error{border-color:#b00020;background:#fef2f2}
.empty-note{color:#4b5563}
</style>
<h1>{{.Title}}</h1>
<nav class="tabs" aria-label="Dashboard">
<a href="/mock/ui/emails"{{if eq .Active "emails"}} aria-current="page"{{end}}>Inbox</a>
<a href="/mock/ui/casefiles"{{if eq .Active "casefiles"}} aria-current="page"{{end}}>Case files</a>
<a href="/mock/ui/webhooks"{{if eq .Active "webhooks"}} aria-current="page"{{end}}>Webhooks</a>
<a href="/mock/ui/clock"{{if eq .Active "clock"}} aria-current="page"{{end}}>Clock</a>
</nav>
{{if .Note}}<p class="flash{{if .NoteIsError}} note-error{{end}}" id="note" role="status">{{.Note}}</p>{{end}}
{{if eq .Active "emails"}}{{template "emails" .Data}}{{end}}
{{if eq .Active "casefiles"}}{{template "casefiles" .Data}}{{end}}
{{if eq .Active "webhooks"}}{{template "webhooks" .Data}}{{end}}
{{if eq .Active "clock"}}{{template "clock" .Data}}{{end}}
{{end}}

{{define "emails"}}{{if not .}}<p class="empty-note" id="no-emails">No email has been sent yet.</p>{{else}}
<table id="emails"><thead><tr><th scope="col">Sent (mock time)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Text</th><th scope="col">Signing link</th></tr></thead><tbody>
{{range .}}<tr class="email"><td class="mono">{{time .At}}</td><td class="to">{{.To}}</td><td class="subject">{{.Subject}}</td><td class="text">{{short .Text}}</td><td>{{if .SigningLink}}<a class="signing-link" href="{{.SigningLink}}">Open the signing page</a>{{end}}</td></tr>
{{end}}</tbody></table>{{end}}{{end}}

{{define "casefiles"}}{{$acts := .Actions}}{{if not .CaseFiles}}<p class="empty-note" id="no-casefiles">No case file yet.</p>{{end}}
{{range .CaseFiles}}{{$cf := .}}<section class="casefile" id="casefile-{{.ID}}" aria-labelledby="casefile-{{.ID}}-title">
<h2 id="casefile-{{.ID}}-title">{{.ID}}. {{.Title}}<span class="badge" data-status="{{.Status}}">{{.Status}}</span></h2>
<table><thead><tr><th scope="col">Signer</th><th scope="col">Round</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody>
{{range .Signers}}<tr class="signer" id="signer-{{.ID}}"><td>{{.Name}}{{if .Email}}<br><span class="mono">{{.Email}}</span>{{end}}</td><td>{{.SignOrder}}</td><td class="signer-status">{{.Status}}</td>
<td><div class="acts">{{$sg := .}}{{range $acts}}<form method="post" action="/mock/ui/casefiles/{{$cf.ID}}/signers/{{$sg.ID}}/{{.}}"><button type="submit" class="secondary" data-action="{{.}}" aria-label="{{.}} as {{$sg.Name}}">{{.}}</button></form>{{end}}</div></td></tr>
{{end}}</tbody></table></section>
{{end}}{{end}}

{{define "webhooks"}}<h2>Subscriptions</h2>{{if not .Subscriptions}}<p class="empty-note" id="no-subscriptions">No subscription yet.</p>{{else}}
<table id="subscriptions"><thead><tr><th scope="col">Id</th><th scope="col">Customer</th><th scope="col">Endpoint</th><th scope="col">Event types</th><th scope="col">Active</th></tr></thead><tbody>
{{range .Subscriptions}}<tr class="subscription"><td class="mono">{{.ID}}</td><td>{{.CustomerID}}</td><td class="mono">{{.Endpoint}}</td><td>{{join .EventTypes}}</td><td>{{if .IsActive}}yes{{else}}no{{end}}</td></tr>
{{end}}</tbody></table>{{end}}
<h2>Delivery attempts</h2>{{if not .Deliveries}}<p class="empty-note" id="no-deliveries">No delivery attempt yet.</p>{{else}}
<table id="deliveries"><thead><tr><th scope="col">Mock time</th><th scope="col">Event</th><th scope="col">Subscription</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Error</th><th scope="col">Replay</th></tr></thead><tbody>
{{range .Deliveries}}<tr class="delivery" data-event-type="{{.EventType}}" data-outcome="{{.Outcome}}"><td class="mono">{{time .At}}</td><td>{{.EventType}}<br><span class="mono">{{.EventID}}</span></td><td class="mono">{{.SubscriptionID}}</td><td>{{.Attempt}}</td>
<td class="{{if eq .Outcome "delivered"}}ok{{else}}bad{{end}}">{{.Outcome}}</td><td class="http-status">{{if .Status}}{{.Status}}{{else}}none{{end}}</td><td>{{.DurationMs}} ms</td><td>{{.Error}}</td>
<td><form method="post" action="/mock/ui/webhooks/replay"><input type="hidden" name="subscriptionId" value="{{.SubscriptionID}}"><input type="hidden" name="eventId" value="{{.EventID}}"><button type="submit" class="secondary replay" aria-label="Replay {{.EventType}} {{.EventID}}">Replay</button></form></td></tr>
{{end}}</tbody></table>{{end}}{{end}}

{{define "clock"}}<p>Mock time: <strong id="now" class="mono">{{time .Now}}</strong> ({{if .Manual}}manual clock: it moves only when advanced{{else}}real clock, plus what was advanced{{end}})</p>
{{if .Error}}<p class="error-message" id="clock-error">{{.Error}}</p>{{end}}
<form method="post" action="/mock/ui/clock" class="actions" id="advance">
<div class="field"><label for="amount">Advance by</label><input id="amount" name="amount" type="text" inputmode="decimal" value="1"{{if .Error}} aria-invalid="true" aria-describedby="clock-error"{{end}}></div>
<div class="field"><label for="unit">Unit</label><select id="unit" name="unit">{{range .Units}}<option value="{{.}}"{{if eq . "hours"}} selected{{end}}>{{.}}</option>{{end}}</select></div>
<button type="submit" id="advance-button">Advance</button>
</form>
<p class="note">Advancing runs everything that falls due meanwhile, in time order: queued jobs, reminders, expiry, webhook retries.</p>{{end}}`

// funcs are the template functions of the dashboard.
var funcs = template.FuncMap{
	"time": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 MST") },
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"short": func(s string) string {
		if r := []rune(s); len(r) > 160 {
			return string(r[:160]) + "…"
		}
		return s
	},
}

// page renders every view.
var page = pages.Must("dashboard", pageHTML, funcs)
