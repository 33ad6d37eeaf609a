package forms

import (
	"html/template"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
)

// formPageHTML is the public form page, inside the pages' layout. Sections and
// fields carry their condition as JSON in data-cond; the script (formScript)
// shows a section or field only while its condition holds (disabling the inputs
// of hidden ones, so the browser does not send them), keeps {{field}} merge
// spans up to date, adds instances of multi-entry sections and values of
// multi-entry fields, moves focus to the error summary and from its links to
// the fields, and clears a field's error once it changes. The server enforces
// the same rules on submit, and the page works without the script
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#pages).
const formPageHTML = `{{define "main"}}<h1>{{.Title}}</h1>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Summary}}<div class="error-summary" id="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">{{.T.ErrorSummary}}</h2>
<ul>{{range .Summary}}<li><a href="#{{.Target}}" data-field="{{.Field}}">{{.Text}}</a></li>
{{end}}</ul></div>
{{end}}{{if .AnyRequired}}<p class="note" id="required-note">{{.T.RequiredNote}}</p>
{{end}}{{if .AnyCondition}}<noscript><p class="note" id="nojs-note">{{.T.MoreQuestions}}</p></noscript>
{{end}}<form id="signkit-form" method="post" enctype="multipart/form-data" action="{{.Action}}" novalidate>
{{$t := .T}}{{range .Sections}}<fieldset class="section" id="section-{{.Slug}}" data-scope="section"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Multi}} data-max="{{.Max}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if .Title}}<legend>{{.Title}}</legend>{{end}}
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{range .Instances}}{{template "instance" (pair . $t)}}{{end}}
{{if .Multi}}<template id="tpl-{{.Slug}}">{{template "instance" (pair .Template $t)}}</template>
<button type="button" class="secondary add" id="add-{{.Slug}}" data-add="{{.Slug}}"{{if ge (len .Instances) .Max}} hidden{{end}}>{{$t.Add}}</button>
{{end}}</fieldset>
{{end}}<div class="actions"><button type="submit" id="submit">{{.T.Submit}}</button></div>
</form>
<script>` + formScript + `</script>{{end}}

{{define "instance"}}{{$t := .T}}{{with .V}}{{if .Multi}}<div class="instance" data-instance="{{.Index}}">
{{end}}{{range .Fields}}{{template "field" (pair . $t)}}{{end}}{{if .Multi}}</div>
{{end}}{{end}}{{end}}

{{define "aria"}}{{if .Describe}} aria-describedby="{{.Describe}}"{{end}}{{if .Error}} aria-invalid="true"{{end}}{{if and .Required (not .Locked)}} required{{end}}{{if .Hidden}} disabled{{end}}{{end}}

{{define "field"}}{{$t := .T}}{{with .V}}<div class="field{{if .Error}} has-error{{end}}" id="field-{{.ID}}" data-scope="field" data-name="{{.Name}}"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if eq .Type "HTML"}}<div class="content">{{.Content}}</div>
{{else}}{{if and .Radio (not .Locked)}}<p class="label" id="label-{{.ID}}">{{else}}<label for="in-{{.ID}}">{{end}}{{.Label}}{{if and .Required (not .Locked)}} <span class="req" aria-hidden="true">*</span>{{end}}{{if and .Radio (not .Locked)}}</p>{{else}}</label>{{end}}
{{if .Locked}}<span class="locked" id="locked-{{.ID}}"><svg class="lock" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14"><path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z" fill="currentColor"/></svg> {{$t.SetBySender}}</span>
{{end}}{{if .Error}}<p class="error-message" id="error-{{.ID}}">{{.Error}}</p>
{{end}}{{if .LostFile}}<p class="notice file-lost" id="lost-{{.ID}}">{{.LostFile}}</p>
{{end}}{{if .Multi}}{{$f := .}}<div class="values" data-max="{{.Max}}" data-label="{{.Label}}">{{range .Inputs}}<input id="{{.ID}}" type="{{if $f.Locked}}text{{else}}{{$f.InputType}}{{end}}" name="{{$f.Name}}" value="{{.Value}}"{{if .Label}} aria-label="{{.Label}}"{{end}}{{if $f.Locked}} readonly{{end}}{{template "aria" $f}}>{{end}}</div>
{{if not .Locked}}<button type="button" class="secondary add-value" id="add-{{.ID}}" data-add-value="in-{{.ID}}"{{if ge (len .Inputs) .Max}} hidden{{end}}>{{$t.Add}}</button>
{{end}}{{else if and .Radio (not .Locked)}}{{$f := .}}<div class="radios" id="in-{{.ID}}" role="radiogroup" aria-labelledby="label-{{.ID}}"{{if .Describe}} aria-describedby="{{.Describe}}"{{end}}>{{range $i, $o := .Options}}<label class="radio"><input type="radio" id="in-{{$f.ID}}-{{$i}}" name="{{$f.Name}}" value="{{$o.Value}}"{{if eq $o.Value $f.Value}} checked{{end}}{{template "aria" $f}}> {{or $o.Label $o.Value}}</label>{{end}}</div>
{{else if and (eq .Type "CHOICE") (not .Locked)}}<select id="in-{{.ID}}" name="{{.Name}}"{{template "aria" .}}>
<option value="">{{$t.Choose}}</option>
{{$v := .Value}}{{range .Options}}<option value="{{.Value}}"{{if eq .Value $v}} selected{{end}}>{{or .Label .Value}}</option>
{{end}}</select>
{{else if eq .Type "CHOICE"}}<input id="in-{{.ID}}" type="text" value="{{.Display}}" readonly{{template "aria" .}}><input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{else if eq .Type "FILE"}}<input id="in-{{.ID}}" type="file" name="{{.Name}}"{{template "aria" .}}>
{{else if .Multiline}}<textarea id="in-{{.ID}}" name="{{.Name}}" rows="4"{{if .Locked}} readonly{{end}}{{template "aria" .}}>{{.Value}}</textarea>
{{else}}<input id="in-{{.ID}}" type="{{if .Locked}}text{{else}}{{.InputType}}{{end}}" name="{{.Name}}" value="{{.Value}}"{{if eq .Type "NUMBER"}} inputmode="decimal"{{end}}{{if .Locked}} readonly{{end}}{{template "aria" .}}>
{{end}}{{end}}</div>
{{end}}{{end}}`

// formScript is the form page's script (see formPageHTML).
const formScript = `
(function () {
  var form = document.getElementById("signkit-form");
  // value answers a field's answer; a merge field of a multi-entry section
  // or field shows its first instance's (first) value.
  function value(name) {
    var el = form.elements.namedItem(name) || form.elements.namedItem(name + "[0]") || form.elements.namedItem(name + "[]");
    if (el && !el.tagName && el.length) {
      if (el[0].type === "radio") return el[0].disabled ? "" : el.value; // the checked one's
      el = el[0];
    }
    if (!el || el.disabled) return "";
    if (el.type === "file") return el.files && el.files.length ? el.files[0].name : "";
    return el.value;
  }
  function holds(node) {
    var c = node.getAttribute("data-cond");
    if (!c) return true;
    var rules = JSON.parse(c);
    for (var i = 0; i < rules.length; i++) {
      if (value(rules[i].field) !== rules[i].value) return false;
    }
    return true;
  }
  // shown answers what a merge span shows for a value: a choice's label, a
  // date as the browser's date inputs show it, or the placeholder while empty.
  function shown(span, v) {
    var type = span.getAttribute("data-merge-type");
    if (v !== "" && type === "CHOICE") {
      var labels = JSON.parse(span.getAttribute("data-options") || "{}");
      if (labels[v]) v = labels[v];
    }
    if (type === "DATE" && /^\d{4}-\d{2}-\d{2}$/.test(v)) {
      // The browser's own date format, the one its date inputs show.
      v = new Intl.DateTimeFormat(undefined, {year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC"}).format(new Date(v + "T00:00:00Z"));
    }
    span.classList.toggle("empty", v === "");
    return v === "" ? span.getAttribute("data-placeholder") : v;
  }
  function update() {
    var sectionShown = true;
    form.querySelectorAll("[data-scope]").forEach(function (node) {
      var on;
      if (node.getAttribute("data-scope") === "section") {
        on = sectionShown = holds(node);
      } else {
        on = sectionShown && holds(node);
        node.querySelectorAll("input,select,textarea").forEach(function (el) { el.disabled = !on; });
      }
      node.hidden = !on;
    });
    document.querySelectorAll("[data-merge]").forEach(function (span) {
      span.textContent = shown(span, value(span.getAttribute("data-merge")));
    });
  }
  // clearError takes a field's error away once its answer changes: the
  // message, the mark and its line in the summary.
  function clearError(el) {
    var field = el.closest && el.closest(".field");
    if (!field) return;
    field.querySelectorAll(".file-lost").forEach(function (m) { m.remove(); });
    if (!field.classList.contains("has-error")) return;
    field.classList.remove("has-error");
    field.querySelectorAll("[aria-invalid]").forEach(function (i) { i.removeAttribute("aria-invalid"); });
    field.querySelectorAll(".error-message").forEach(function (m) { m.remove(); });
    field.querySelectorAll("[aria-describedby]").forEach(function (i) {
      var ids = i.getAttribute("aria-describedby").split(" ").filter(function (id) { return document.getElementById(id); });
      if (ids.length) i.setAttribute("aria-describedby", ids.join(" ")); else i.removeAttribute("aria-describedby");
    });
    var summary = document.getElementById("error-summary");
    if (!summary) return;
    summary.querySelectorAll("a[data-field]").forEach(function (a) {
      if (a.getAttribute("data-field") === field.getAttribute("data-name")) a.parentNode.remove();
    });
    if (!summary.querySelector("li")) summary.hidden = true;
  }
  // An add button of a multi-entry section clones the blank instance with
  // the next index (inputs named <field>[i]); one of a multi-entry field
  // adds one more <field>[] input.
  form.addEventListener("click", function (ev) {
    var b = ev.target;
    if (b.hasAttribute("data-add")) {
      var slug = b.getAttribute("data-add"), section = document.getElementById("section-" + slug);
      var n = section.querySelectorAll(".instance").length, max = +section.getAttribute("data-max");
      if (n >= max) return;
      var html = document.getElementById("tpl-" + slug).innerHTML.split("` + templateIndex + `").join(String(n));
      b.insertAdjacentHTML("beforebegin", html);
      b.hidden = n + 1 >= max;
    } else if (b.hasAttribute("data-add-value")) {
      var box = b.parentNode.querySelector(".values"), inputs = box.querySelectorAll("input");
      if (inputs.length >= +box.getAttribute("data-max")) return;
      var copy = inputs[inputs.length - 1].cloneNode(false);
      copy.value = "";
      copy.id = b.getAttribute("data-add-value") + "-" + inputs.length;
      copy.setAttribute("aria-label", box.getAttribute("data-label") + " (" + (inputs.length + 1) + ")");
      copy.removeAttribute("required");
      box.appendChild(copy);
      b.hidden = inputs.length + 1 >= +box.getAttribute("data-max");
    } else {
      return;
    }
    update();
  });
  form.addEventListener("input", function (ev) { clearError(ev.target); update(); });
  form.addEventListener("change", function (ev) { clearError(ev.target); update(); });
  var summary = document.getElementById("error-summary");
  if (summary) {
    summary.addEventListener("click", function (ev) {
      var a = ev.target.closest("a[href^='#']"), target = a && document.getElementById(a.getAttribute("href").slice(1));
      if (!target) return;
      ev.preventDefault();
      target.scrollIntoView({block: "center"});
      target.focus();
    });
    summary.focus();
  }
  update();
})();
`

// thanksPageHTML is the page after an accepted submission. Because this is
// a mock, it also lists the signing links of the emails just sent, so that
// the flow goes on in the browser.
const thanksPageHTML = `{{define "main"}}<h1>{{.T.ThanksTitle}}</h1>
<p class="flash" id="received">{{.T.Received}}</p>
<dl class="ids"><dt>{{.T.SubmissionLabel}}</dt><dd id="submission-id">{{.SubmissionID}}</dd>
<dt>{{.T.CaseFileLabel}}</dt><dd id="casefile-id">{{.CaseFileID}}</dd></dl>
{{if .Links}}<p id="emails-note">{{.T.EmailsSent}}</p>
<div class="mock-note" id="mock-links"><p>{{.T.MockLinks}}</p>
<ul class="links" id="signing-links">{{range .Links}}<li><a class="button secondary signing-link" href="{{.URL}}">{{printf $.T.SignAsF .Name}}</a>{{if .Email}} {{.Email}}{{end}}</li>
{{end}}</ul></div>{{end}}{{end}}`

// withText pairs a value with the page's texts for a sub-template.
type withText struct {
	V any
	T *pages.Text
}

// pageFuncs are the functions of the page templates.
var pageFuncs = template.FuncMap{"pair": func(v any, t *pages.Text) withText { return withText{V: v, T: t} }}

// The page templates, parsed once.
var (
	formPage   = pages.Must("form", formPageHTML, pageFuncs)
	thanksPage = pages.Must("thanks", thanksPageHTML, nil)
)
