package dashboard

import (
	"html/template"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
)

// pageHTML is every view of the dashboard inside the pages' layout: the nav,
// the note of the last action, and the view named by .Active. Tables have fixed
// column widths, so that long ids, addresses and URLs wrap instead of taking
// the row; on a screen narrower than a table's minimum width (56rem) every
// table's rows become blocks, each cell on its own line after its column's
// name, so that no table is wider than the screen and each button sits beside
// the name of whom or what it acts on
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
const pageHTML = `{{define "main"}}<style>
main{max-width:76rem}
nav.tabs{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1.5rem}
nav.tabs a{display:inline-flex;align-items:center;min-height:2.75rem;padding:.25rem 1rem;border-radius:4px;border:2px solid #1d4ed8;text-decoration:none;font-weight:600}
nav.tabs a[aria-current=page]{background:#1d4ed8;color:#fff}
.scroll{overflow-x:auto;margin:.5rem 0 1.5rem}
table{border-collapse:collapse;width:100%;min-width:52rem;table-layout:fixed;font-size:.95rem}
th,td{text-align:left;vertical-align:top;padding:.5rem;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}
th{background:#f9fafb}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
.acts{display:flex;flex-wrap:wrap;gap:.35rem}
.change-email{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem;margin-top:.35rem}
.change-email label{width:100%;font-size:.85rem;color:#4b5563}
.change-email input{flex:1 1 10rem;min-width:0;max-width:100%;min-height:2.75rem;box-sizing:border-box}
.acts button,button.replay,.change-email button{min-height:2.75rem;padding:.25rem .75rem;font-size:.9rem;white-space:nowrap}
.badge{display:inline-block;margin-left:.5rem;padding:.1rem .6rem;border-radius:999px;background:#eef2ff;font-size:.9rem;font-weight:600;vertical-align:middle}
.badge[data-status=completed]{background:#ecfdf5;color:#047857}
.badge[data-status=rejected],.badge[data-status=expired],.badge[data-status=failed]{background:#fef2f2;color:#b00020}
.ok{color:#047857;font-weight:600}.bad{color:#b00020;font-weight:600}
.note-error{border-color:#b00020;background:#fef2f2}
.empty-note,.none,.brand,.count,.customer,.sub{color:#4b5563}
.brand{margin:0 0 .25rem;font-size:.9rem;font-weight:600}
.casefile{margin:0 0 1rem}
.sub{font-size:.85rem}.sub .mono{font-size:.8rem}
.casefile h2{overflow-wrap:anywhere}
.casefile h2 .customer{font-size:.9rem;font-weight:400;margin-left:.5rem}
@media (max-width:56rem){
.reflow table,.reflow tbody,.reflow tr,.reflow td{display:block;width:auto;min-width:0}
.reflow colgroup,.reflow thead{display:none}
.reflow tr{padding:.5rem 0;border-bottom:1px solid #e5e7eb}
.reflow td{padding:.2rem 0;border:0}
.reflow td.who{font-weight:600}
.reflow td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:#4b5563;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
}
</style>
<p class="brand">signkit mock · dashboard</p>
<h1>{{.Heading}}</h1>
<nav class="tabs" aria-label="Dashboard">
<a href="/mock/ui/emails"{{if eq .Active "emails"}} aria-current="page"{{end}}>Inbox</a>
<a href="/mock/ui/casefiles"{{if eq .Active "casefiles"}} aria-current="page"{{end}}>Case files</a>
<a href="/mock/ui/webhooks"{{if eq .Active "webhooks"}} aria-current="page"{{end}}>Webhooks</a>
<a href="/mock/ui/clock"{{if eq .Active "clock"}} aria-current="page"{{end}}>Clock</a>
</nav>
{{if .Note}}<p class="flash{{if .NoteIsError}} note-error{{end}}" id="note" role="status">{{if .NoteIsError}}<strong>Not done:</strong> {{end}}{{.Note}}</p>{{end}}
{{if eq .Active "emails"}}{{template "emails" .Data}}{{end}}
{{if eq .Active "casefiles"}}{{template "casefiles" .Data}}{{end}}
{{if eq .Active "webhooks"}}{{template "webhooks" .Data}}{{end}}
{{if eq .Active "clock"}}{{template "clock" .Data}}{{end}}
{{if eq .Active "error"}}<p class="flash note-error" id="message" role="alert">{{.Data}}</p>
<p><a href="/mock/ui" id="home">Back to the inbox</a></p>{{end}}
{{end}}

{{define "count"}}{{if gt .Total (len .List)}}<p class="count">The newest {{len .List}} of {{.Total}}.</p>{{end}}{{end}}

{{define "emails"}}{{if not .List}}<p class="empty-note" id="no-emails">No email has been sent yet.</p>{{else}}
<div class="scroll reflow"><table id="emails"><colgroup><col style="width:9.5rem"><col style="width:19%"><col style="width:22%"><col><col style="width:9.5rem"></colgroup>
<thead><tr><th scope="col">Sent (mock time)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Text</th><th scope="col">Signing link</th></tr></thead><tbody>
{{range .List}}<tr class="email"><td class="mono" data-label="Sent">{{time .At}}</td><td data-label="To" class="to who">{{.To}}</td><td data-label="Subject" class="subject">{{.Subject}}</td><td data-label="Text" class="text">{{short .Text}}</td><td>{{if .SigningLink}}<a class="signing-link" href="{{.SigningLink}}">Open the signing page</a>{{end}}</td></tr>
{{end}}</tbody></table></div>{{template "count" .}}{{end}}{{end}}

{{define "casefiles"}}{{if not .}}<p class="empty-note" id="no-casefiles">No case file yet.</p>{{end}}
{{range .}}{{$cf := .}}<section class="casefile" id="casefile-{{.ID}}" aria-labelledby="casefile-{{.ID}}-title">
<h2 id="casefile-{{.ID}}-title">{{.ID}}. {{.Title}}<span class="badge" data-status="{{.Status}}">{{.Status}}</span><span class="customer">customer {{.CustomerID}}</span></h2>
<div class="scroll reflow"><table><colgroup><col style="width:26%"><col style="width:4.5rem"><col style="width:16%"><col></colgroup>
<thead><tr><th scope="col">Signer</th><th scope="col">Round</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody>
{{range .Signers}}<tr class="signer" id="signer-{{.ID}}"><td class="who">{{.Name}}{{if .Email}}<br><span class="mono">{{.Email}}</span>{{end}}</td><td data-label="Round">{{.SignOrder}}</td><td class="signer-status" data-label="Status">{{.Status}}</td>
<td>{{$sg := .}}{{if or .Actions .CanResend}}<div class="acts">{{range .Actions}}<form method="post" action="/mock/ui/casefiles/{{$cf.ID}}/signers/{{$sg.ID}}/{{.}}"><button type="submit" class="secondary" data-action="{{.}}" aria-label="{{.}} as {{$sg.Name}}">{{.}}</button></form>{{end}}{{if .CanResend}}<form method="post" action="/mock/ui/casefiles/{{$cf.ID}}/signers/{{$sg.ID}}/request/resend"><button type="submit" class="secondary" data-action="resend" aria-label="resend the signing request to {{$sg.Name}}">resend</button></form>{{end}}</div>{{else}}<span class="none">Nothing to do: {{if ne $cf.Status "pending"}}the case file is {{$cf.Status}}{{else if eq .Status "signed"}}{{.Name}} has signed{{else if eq .Status "deleted"}}{{.Name}} was removed{{else}}{{.Name}} is {{.Status}}{{end}}.</span>{{end}}{{if .CanChangeEmail}}<form class="change-email" method="post" action="/mock/ui/casefiles/{{$cf.ID}}/signers/{{$sg.ID}}/request/email"><label for="email-{{$sg.ID}}">New email of {{$sg.Name}}</label><input id="email-{{$sg.ID}}" type="email" name="email" required value="{{$sg.Email}}" autocomplete="off"><button type="submit" class="secondary" data-action="change-email" aria-label="change the email of {{$sg.Name}}">change email</button></form>{{end}}</td></tr>
{{end}}</tbody></table></div></section>
{{end}}{{end}}

{{define "webhooks"}}<h2>Subscriptions</h2>{{if not .Subscriptions}}<p class="empty-note" id="no-subscriptions">No subscription yet.</p>{{else}}
<div class="scroll reflow"><table id="subscriptions"><colgroup><col style="width:21rem"><col style="width:6.5rem"><col><col style="width:30%"><col style="width:4.5rem"></colgroup>
<thead><tr><th scope="col">Id</th><th scope="col">Customer</th><th scope="col">Endpoint</th><th scope="col">Event types</th><th scope="col">Active</th></tr></thead><tbody>
{{range .Subscriptions}}<tr class="subscription"><td class="mono who">{{.ID}}</td><td data-label="Customer">{{.CustomerID}}</td><td class="mono" data-label="Endpoint">{{.Endpoint}}</td><td data-label="Event types">{{join .EventTypes}}</td><td data-label="Active">{{if .IsActive}}yes{{else}}no{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
<h2>Delivery attempts</h2>{{if not .Deliveries.List}}<p class="empty-note" id="no-deliveries">No delivery attempt yet.</p>{{else}}
<div class="scroll reflow"><table id="deliveries"><colgroup><col style="width:7rem"><col style="width:28%"><col style="width:5.5rem"><col style="width:6.5rem"><col style="width:4.5rem"><col style="width:6rem"><col><col style="width:6.5rem"></colgroup>
<thead><tr><th scope="col">Mock time</th><th scope="col">Event, subscription</th><th scope="col">Attempt</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Error</th><th scope="col">Replay</th></tr></thead><tbody>
{{with .Deliveries}}{{range .List}}<tr class="delivery" data-event-type="{{.EventType}}" data-outcome="{{.Outcome}}"><td class="mono" data-label="Mock time">{{time .At}}</td><td class="who">{{.EventType}}<br><span class="mono">{{.EventID}}</span><br><span class="sub">to <span class="mono">{{.SubscriptionID}}</span></span></td><td data-label="Attempt">{{.Attempt}}{{if .Replay}} (replay){{end}}</td>
<td{{if eq .Outcome "delivered"}} class="ok"{{else if ne .Outcome "pending"}} class="bad"{{end}} data-label="Outcome">{{.Outcome}}</td><td class="http-status" data-label="Status">{{if .Status}}{{.Status}}{{else}}none{{end}}</td><td data-label="Duration">{{.DurationMs}} ms</td><td class="text"{{if .Error}} data-label="Error"{{end}}>{{.Error}}</td>
<td><form method="post" action="/mock/ui/webhooks/replay"><input type="hidden" name="subscriptionId" value="{{.SubscriptionID}}"><input type="hidden" name="eventId" value="{{.EventID}}"><button type="submit" class="secondary replay" aria-label="Replay {{.EventType}} {{.EventID}}">Replay</button></form></td></tr>
{{end}}</tbody></table></div>{{template "count" .}}{{end}}{{end}}{{end}}

{{define "clock"}}<p>Mock time: <strong id="now" class="mono">{{time .Now}}</strong> ({{if .Manual}}manual clock: it moves only when advanced{{else}}real clock, plus what was advanced{{end}})</p>
{{if .Error}}<p class="error-message" id="clock-error">{{.Error}}</p>{{end}}
<form method="post" action="/mock/ui/clock" class="actions" id="advance">
<div class="field"><label for="amount">Advance by</label><input id="amount" name="amount" type="text" inputmode="decimal" value="{{.Amount}}"{{if .Error}} aria-invalid="true" aria-describedby="clock-error"{{end}}></div>
<div class="field"><label for="unit">Unit</label><select id="unit" name="unit">{{range .Units}}<option value="{{.}}"{{if eq . $.Unit}} selected{{end}}>{{.}}</option>{{end}}</select></div>
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
