// Package pages is what every HTML page of the mock shares: one layout
// (language, viewport, title), one small responsive stylesheet, and the pages'
// fixed texts in the platform's languages
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#pages).
// The public form pages and the signing pages build on it.
package pages

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// layoutHTML wraps every page: the page's template defines "main" and its
// data has the fields Lang and Title.
const layoutHTML = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + stylesheet + `</style>
</head>
<body>
<main id="main">
{{template "main" .}}
</main>
</body>
</html>
`

// stylesheet is the one stylesheet of every page: readable at 390 px,
// inputs at 16 px (phones do not zoom in on focus), touch targets of at
// least 44 px, visible focus, errors marked by more than colour.
const stylesheet = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:1rem;line-height:1.5;color:#1b1b1f;background:#f3f4f6}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem;background:#fff;min-height:100vh}
@media (min-width:48rem){main{margin:2rem auto;min-height:0;padding:2rem 2.5rem;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.2rem;margin:0 0 .5rem}
a{color:#1d4ed8}
fieldset{border:0;border-top:1px solid #d1d5db;margin:1.5rem 0 0;padding:1rem 0 0;min-width:0}
legend{font-size:1.2rem;font-weight:600;padding:0}
.field{margin:1rem 0}
label,.label{display:block;font-weight:600;margin:0 0 .25rem}
input,select,textarea,button,.button{font:inherit;font-size:1rem}
input:not([type=radio]):not([type=checkbox]),select,textarea{display:block;width:100%;min-height:2.75rem;padding:.5rem .75rem;border:1px solid #6b7280;border-radius:4px;background:#fff;color:inherit}
input[type=file]{padding:.45rem .5rem}
input:not([type=radio]):not([type=checkbox])[readonly],textarea[readonly]{background:#f3f4f6;border-style:dashed;color:#374151}
.radio{display:flex;align-items:center;gap:.6rem;min-height:2.75rem;font-weight:400;margin:0}
.radio input{width:1.25rem;height:1.25rem;margin:0}
button,.button{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;min-width:2.75rem;padding:.5rem 1.25rem;border-radius:4px;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;font-weight:600;text-decoration:none;cursor:pointer}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button.danger{background:#b00020;border-color:#b00020}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-top:1.5rem}
@media (max-width:30rem){.actions>button,.actions>.button{width:100%}}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error-summary{border:3px solid #b00020;padding:1rem 1.25rem;margin:0 0 1.5rem;border-radius:4px}
.error-summary:focus{outline:3px solid #f59e0b;outline-offset:2px}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:#b00020;font-weight:600}
.has-error{border-left:4px solid #b00020;padding-left:.75rem}
[aria-invalid=true]{border:2px solid #b00020!important}
.error-message{color:#b00020;font-weight:600;margin:.25rem 0}
.error-message::before{content:"! ";font-weight:700}
.notice{color:#92400e;font-weight:600;margin:.25rem 0}
.reject-area{margin-top:2rem;padding-top:1rem;border-top:1px solid #d1d5db}
.note,.hint{color:#4b5563}
.locked{display:inline-flex;align-items:center;gap:.3rem;color:#374151;font-size:.9rem;margin:0 0 .25rem}
.req{color:#b00020}
.merge.empty{color:#6b7280;font-style:italic}
.status{padding:.75rem 1rem;background:#eef2ff;border-radius:4px}
.flash{padding:.75rem 1rem;background:#ecfdf5;border:1px solid #10b981;border-radius:4px}
.signers{padding-left:1.25rem}
.signers .progress{color:#4b5563}
.signers li[data-status=signed] .progress{color:#047857;font-weight:600}
.mock-note{font-size:.95rem;border:1px dashed #9ca3af;padding:.75rem 1rem;border-radius:4px;background:#fafafa}
.mock-note p{margin-top:0}
.links{list-style:none;padding:0;margin:0}
.links li{margin:.5rem 0}
dl.ids{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.ids dt{font-weight:600}
dl.ids dd{margin:0}
[hidden]{display:none!important}
`

// New answers a page template: the layout around body, which defines
// "main". funcs may be nil.
func New(name, body string, funcs template.FuncMap) (*template.Template, error) {
	t := template.New(name).Funcs(funcs)
	if _, err := t.Parse(layoutHTML); err != nil {
		return nil, fmt.Errorf("pages: layout: %w", err)
	}
	if _, err := t.Parse(body); err != nil {
		return nil, fmt.Errorf("pages: %s: %w", name, err)
	}
	return t, nil
}

// Must is New that panics on a template error: for the pages' own
// templates, which are constants.
func Must(name, body string, funcs template.FuncMap) *template.Template {
	t, err := New(name, body, funcs)
	if err != nil {
		panic(err)
	}
	return t
}

// Render executes t with data into bytes.
func Render(t *template.Template, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("render %s page: %w", t.Name(), err)
	}
	return buf.Bytes(), nil
}

// Write writes an HTML page with its status.
func Write(w http.ResponseWriter, status int, page []byte) {
	h := w.Header()
	h["Content-Type"] = []string{"text/html; charset=utf-8"} // the names are canonical already
	h["Content-Length"] = []string{strconv.Itoa(len(page))}
	w.WriteHeader(status)
	_, _ = w.Write(page)
}

// Message is the data of a page that only says something: an unknown or
// expired link, a form that cannot be opened.
type Message struct {
	Lang, Title, Message string
}

// messageHTML is the body of a Message page.
const messageHTML = `{{define "main"}}<h1>{{.Title}}</h1>
<p id="message">{{.Message}}</p>{{end}}`

// messagePage renders Message pages.
var messagePage = Must("message", messageHTML, nil)

// WriteMessage writes a page that only says something, with its status.
func WriteMessage(w http.ResponseWriter, status int, m Message) error {
	b, err := Render(messagePage, m)
	if err != nil {
		return err
	}
	Write(w, status, b)
	return nil
}

// Language matches a language code case-insensitively ("EN" is en) to one
// the pages speak, and answers it with its texts; any other is English.
func Language(lang string) (string, *Text) {
	l := strings.ToLower(strings.TrimSpace(lang))
	if t, ok := texts[l]; ok {
		return l, t
	}
	return "en", texts["en"]
}
