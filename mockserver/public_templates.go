package mockserver

// pageTemplate is the public form page. Sections and fields carry their
// condition as JSON in data-cond; the inline script shows a section or field
// only while its condition holds (disabling the inputs of hidden ones, so the
// browser does not send them) and keeps {{field}} merge spans up to date.
// The server enforces the same rules on submit.
const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}
fieldset{margin:1rem 0;border:1px solid #ccc;padding:1rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:bold}
input,select{width:100%;padding:.4rem;box-sizing:border-box}
input[readonly]{background:#eee}
.error{color:#b00020}
[hidden]{display:none!important}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Errors}}<div class="error" id="errors" role="alert"><p>Please correct the following:</p><ul>
{{range .Errors}}<li data-field="{{.Field}}">{{.Field}}: {{.Message}}</li>
{{end}}</ul></div>{{end}}
<form id="signkit-form" method="post" enctype="multipart/form-data" action="{{.Action}}">
{{range .Sections}}<fieldset class="section" id="section-{{.Slug}}" data-scope="section"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if .Title}}<legend>{{.Title}}</legend>{{end}}
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{range .Fields}}<div class="field" id="field-{{.Name}}" data-scope="field"{{if .Cond}} data-cond="{{.Cond}}"{{end}}{{if .Hidden}} hidden{{end}}>
{{if eq .Type "HTML"}}<div class="content">{{.Content}}</div>
{{else}}<label for="in-{{.Name}}">{{.Label}}{{if .Required}} *{{end}}</label>
{{if and (eq .Type "CHOICE") (not .Locked)}}<select id="in-{{.Name}}" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
<option value="">Choose…</option>
{{$v := .Value}}{{range .Options}}<option value="{{.Value}}"{{if eq .Value $v}} selected{{end}}>{{or .Label .Value}}</option>
{{end}}</select>
{{else if eq .Type "FILE"}}<input id="in-{{.Name}}" type="file" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
{{else}}<input id="in-{{.Name}}" type="{{if .Locked}}text{{else}}{{.InputType}}{{end}}" name="{{.Name}}" value="{{.Value}}"{{if eq .Type "NUMBER"}} inputmode="decimal"{{end}}{{if .Locked}} readonly{{end}}{{if .Required}} required{{end}}{{if .Hidden}} disabled{{end}}>
{{end}}{{if .Error}}<p class="error" id="error-{{.Name}}">{{.Error}}</p>{{end}}
{{end}}</div>
{{end}}</fieldset>
{{end}}<button type="submit" id="submit">Submit</button>
</form>
<script>
(function () {
  var form = document.getElementById("signkit-form");
  function value(name) {
    var el = form.elements.namedItem(name);
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
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
</script>
</body>
</html>
`

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
