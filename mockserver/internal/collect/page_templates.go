package collect

import "html/template"

// pageTemplate is the public form page. Sections and fields carry their
// condition as JSON in data-cond; the inline script shows a section or field
// only while its condition holds (disabling the inputs of hidden ones, so the
// browser does not send them), keeps {{field}} merge spans up to date, and
// adds instances of multi-entry sections and values of multi-entry fields.
// The server enforces the same rules on submit.
const pageTemplate = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}
fieldset{margin:1rem 0;border:1px solid #ccc;padding:1rem}
.instance{border-top:1px dashed #ccc;margin-top:.5rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:bold}
input,select,textarea{width:100%;padding:.4rem;box-sizing:border-box}
.radio input{width:auto}
input[readonly],textarea[readonly]{background:#eee}
.error{color:#b00020}
[hidden]{display:none!important}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Errors}}<div class="error" id="errors" role="alert"><p>{{.T.Correct}}</p><ul>
{{range .Errors}}<li data-field="{{.Field}}">{{.Field}}: {{.Message}}</li>
{{end}}</ul></div>{{end}}
<form id="signkit-form" method="post" enctype="multipart/form-data" action="{{.Action}}">
{{$t := .T}}{{range .Sections}}<fieldset class="section" id="section-{{.Slug}}" data-scope="section"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Multi}} data-max="{{.Max}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if .Title}}<legend>{{.Title}}</legend>{{end}}
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{range .Instances}}{{template "instance" (pair . $t)}}{{end}}
{{if .Multi}}<template id="tpl-{{.Slug}}">{{template "instance" (pair .Template $t)}}</template>
<button type="button" class="add" id="add-{{.Slug}}" data-add="{{.Slug}}"{{if ge (len .Instances) .Max}} hidden{{end}}>{{$t.Add}}</button>
{{end}}</fieldset>
{{end}}<button type="submit" id="submit">{{.T.Submit}}</button>
</form>
<script>
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
  function update() {
    var sectionShown = true;
    form.querySelectorAll("[data-scope]").forEach(function (node) {
      var shown;
      if (node.getAttribute("data-scope") === "section") {
        shown = sectionShown = holds(node);
      } else {
        shown = sectionShown && holds(node);
        node.querySelectorAll("input,select,textarea").forEach(function (el) { el.disabled = !shown; });
      }
      node.hidden = !shown;
    });
    document.querySelectorAll("[data-merge]").forEach(function (span) {
      span.textContent = value(span.getAttribute("data-merge"));
    });
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
      box.appendChild(copy);
      b.hidden = inputs.length + 1 >= +box.getAttribute("data-max");
    } else {
      return;
    }
    update();
  });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
</script>
</body>
</html>
`

// instanceTemplate is one instance of a section: its fields. Inside a
// multi-entry section the instance is wrapped so the page can count and
// clone instances.
const instanceTemplate = `{{$t := .T}}{{with .V}}{{if .Multi}}<div class="instance" data-instance="{{.Index}}">
{{end}}{{range .Fields}}{{template "field" (pair . $t)}}{{end}}{{if .Multi}}</div>
{{end}}{{end}}`

// fieldTemplate is one field: HTML content, or a label and its input(s).
const fieldTemplate = `{{$t := .T}}{{with .V}}<div class="field" id="field-{{.ID}}" data-scope="field"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if eq .Type "HTML"}}<div class="content">{{.Content}}</div>
{{else}}<label for="in-{{.ID}}">{{.Label}}{{if .Required}} *{{end}}</label>
{{if .Multi}}{{$f := .}}<div class="values" data-max="{{.Max}}">{{range $i, $v := .Values}}<input id="in-{{$f.ID}}{{if $i}}-{{$i}}{{end}}" type="{{if $f.Locked}}text{{else}}{{$f.InputType}}{{end}}" name="{{$f.Name}}" value="{{$v}}"{{if $f.Locked}} readonly{{end}}{{if and $f.Required (not $i)}} required{{end}}{{if $f.Hidden}} disabled{{end}}>{{end}}</div>
{{if not .Locked}}<button type="button" class="add-value" id="add-{{.ID}}" data-add-value="in-{{.ID}}"{{if ge (len .Values) .Max}} hidden{{end}}>{{$t.Add}}</button>
{{end}}{{else if and .Radio (not .Locked)}}{{$f := .}}<div class="radios" id="in-{{.ID}}">{{range $i, $o := .Options}}<label class="radio"><input type="radio" id="in-{{$f.ID}}-{{$i}}" name="{{$f.Name}}" value="{{$o.Value}}"{{if eq $o.Value $f.Value}} checked{{end}}{{if $f.Required}} required{{end}}{{if $f.Hidden}} disabled{{end}}> {{or $o.Label $o.Value}}</label>{{end}}</div>
{{else if and (eq .Type "CHOICE") (not .Locked)}}<select id="in-{{.ID}}" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
<option value="">{{$t.Choose}}</option>
{{$v := .Value}}{{range .Options}}<option value="{{.Value}}"{{if eq .Value $v}} selected{{end}}>{{or .Label .Value}}</option>
{{end}}</select>
{{else if eq .Type "FILE"}}<input id="in-{{.ID}}" type="file" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
{{else if .Multiline}}<textarea id="in-{{.ID}}" name="{{.Name}}" rows="4"{{if .Locked}} readonly{{end}}{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>{{.Value}}</textarea>
{{else}}<input id="in-{{.ID}}" type="{{if .Locked}}text{{else}}{{.InputType}}{{end}}" name="{{.Name}}" value="{{.Value}}"{{if eq .Type "NUMBER"}} inputmode="decimal"{{end}}{{if .Locked}} readonly{{end}}{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
{{end}}{{if .Error}}<p class="error" id="error-{{.ID}}">{{.Error}}</p>{{end}}
{{end}}</div>
{{end}}`

// withText pairs a value with the page's texts for a sub-template.
type withText struct {
	V any
	T pageText
}

// pageFuncs are the functions of the page templates.
var pageFuncs = template.FuncMap{"pair": func(v any, t pageText) withText { return withText{V: v, T: t} }}

// thanksTemplate is the page after an accepted submission.
const thanksTemplate = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Thank you</title></head>
<body>
<h1>Thank you</h1>
<p>Your answers were received.</p>
<p>Submission <span id="submission-id">{{.SubmissionID}}</span>, case file <span id="casefile-id">{{.CaseFileID}}</span>.</p>
</body>
</html>
`

// goneTemplate is the page of a form that cannot be opened.
const goneTemplate = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Form not available</title></head>
<body>
<h1>This form is not available</h1>
<p>{{.Message}}</p>
</body>
</html>
`
