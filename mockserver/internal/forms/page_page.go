package forms

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// pageData is what the page template renders.
type pageData struct {
	Title, Description, Action, Lang string
	T                                *pages.Text
	Sections                         []pageSection
	Summary                          []summaryItem // the errors of a rejected submission
	AnyRequired                      bool          // some field has the * explained once
	AnyCondition                     bool          // questions may appear as answers change
}

// pageSection is a section of the page: one instance, or with
// multipleEntries the instances shown so far, a blank Template instance
// (index __i__) and an add button the page's script clones it with.
type pageSection struct {
	Slug, Title, Description string
	Cond                     string // JSON rules, "" without a condition
	Hidden                   bool
	Multi                    bool
	Max                      int
	Instances                []pageInstance
	Template                 *pageInstance
}

// pageInstance is one instance of a section.
type pageInstance struct {
	Index  string // "0", "1", … or the template's "__i__"
	Multi  bool
	Fields []pageField
}

// pageField is one field of an instance. Name is the input's name (field,
// field[i] or field[]), ID the suffix of its element ids.
type pageField struct {
	Name, ID, Label, Type, InputType, Value, Cond, Error string
	Describe                                             string // ids of what describes the input (aria-describedby)
	LostFile                                             string // a file chosen before a rejected submit, to choose again
	Display                                              string // a locked choice's label
	Required, Locked, Hidden                             bool
	Multiline                                            bool // a TEXT field drawn as a textarea
	Radio                                                bool // a CHOICE field with layout RADIO
	Options                                              []optionJSON
	Content                                              template.HTML
	Multi                                                bool         // a multi-entry field
	Max                                                  int          // its most values
	Values                                               []string     // its values (at least one input)
	Inputs                                               []valueInput // its inputs, one per value
}

// valueInput is one input of a multi-entry field; all but the first are
// labelled by Label (the field's label and their number).
type valueInput struct{ ID, Value, Label string }

// buildPage lays out a version with prefill, a rejected submission's posted
// answers (in, nil on GET) and its errors.
func buildPage(v *formVersion, pf *prefill, in *submissionInput, errs []wire.FieldError, action string) *pageData {
	values := make([]string, len(v.inputs))
	for i, f := range v.inputs {
		values[i], _ = pageValue(pf, in, f, 0, firstKey(v, f))
	}
	visible, secVisible := v.visibility(values)
	errByField := map[string]string{}
	for _, e := range errs {
		errByField[e.Field] = e.Message
	}
	lang, text := pages.Language(v.language)
	pd := &pageData{Title: cmpOr(v.name, "Form"), Description: v.description, Action: action, Lang: lang, T: text}
	lay := pageLayout{v: v, pf: pf, in: in, t: text, values: values, visible: visible, secVisible: secVisible,
		errs: errByField, used: map[string]bool{}}
	var posted map[int]int
	if in != nil {
		posted = postedInstances(v, in)
	}
	for si, sec := range v.sections {
		ps := pageSection{Slug: sec.Slug, Title: sec.Title, Description: sec.Description, Cond: condJSON(sec.Condition), Hidden: !secVisible[si]}
		if m := sec.MultipleEntries; m != nil {
			ps.Multi, ps.Max = true, m.Max
			n := min(max(posted[si], pf.instances(si), 1), m.Max)
			for k := range n {
				ps.Instances = append(ps.Instances, lay.instance(si, k))
			}
			tpl := lay.instance(si, -1)
			ps.Template = &tpl
		} else {
			ps.Instances = []pageInstance{lay.instance(si, 0)}
		}
		pd.Sections = append(pd.Sections, ps)
		pd.AnyCondition = pd.AnyCondition || sec.Condition != nil
		for _, f := range sec.Fields {
			pd.AnyRequired = pd.AnyRequired || f.Required
			pd.AnyCondition = pd.AnyCondition || f.Condition != nil
		}
	}
	lay.rest(errs)
	pd.Summary = lay.summary
	return pd
}

// mergeHTML replaces each {{name}} of the integrator's HTML with a span that
// shows the (escaped) answer and that the page's script keeps up to date:
// a choice shows its label, an empty answer the field's label in brackets.
func mergeHTML(content string, v *formVersion, values []string) template.HTML {
	return template.HTML(replaceMergeFields(content, func(name string) string { // the form author's own HTML
		val, typ, label, options := v.value(values, name), "", name, ""
		if i, ok := v.byName[name]; ok {
			f := v.inputs[i].def
			typ, label = string(f.Type), cmpOr(f.Label, f.Name)
			if f.Type == typeChoice {
				labels := map[string]string{}
				for _, o := range f.Options {
					labels[o.Value] = cmpOr(o.Label, o.Value)
				}
				b, _ := json.Marshal(labels) // strings only: cannot fail
				options = fmt.Sprintf(` data-options="%s"`, html.EscapeString(string(b)))
				if l, ok := labels[val]; ok {
					val = l
				}
			}
		}
		placeholder, class := "["+label+"]", "merge"
		shown := val
		if val == "" {
			shown, class = placeholder, "merge empty"
		}
		return fmt.Sprintf(`<span class="%s" data-merge="%s" data-merge-type="%s" data-placeholder="%s"%s>%s</span>`,
			class, html.EscapeString(name), html.EscapeString(typ), html.EscapeString(placeholder), options, html.EscapeString(shown))
	}))
}

func condJSON(c *conditionJSON) string {
	if c == nil || len(c.Rules) == 0 {
		return ""
	}
	b, _ := json.Marshal(c.Rules) // rules are plain strings: cannot fail
	return string(b)
}

func inputType(t string) string {
	switch t {
	case typeEmail:
		return "email"
	case typePhone:
		return "tel"
	case typeDate:
		return "date"
	case typeFile:
		return "file"
	}
	return "text"
}

// renderPage writes a page template as an HTML page.
func renderPage(w http.ResponseWriter, status int, t *template.Template, data any) error {
	b, err := pages.Render(t, data)
	if err != nil {
		return err
	}
	pages.Write(w, status, b)
	return nil
}

// HandlePublicPage is GET /public/forms/{externalId}[/requests/{requestId}]: the form as an HTML
// page. Every view of a public form comes here, so the way of a plain page stays short and its
// frame small (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
func (s *Service) HandlePublicPage(w http.ResponseWriter, r *http.Request) error {
	_, v, pf, err := s.forms.publicForm(r.PathValue("externalId"), r.PathValue("requestId"))
	switch {
	case err != nil:
		return s.publicError(w, r, err)
	case pf != nil:
		return renderPage(w, http.StatusOK, formPage, buildPage(v, pf, nil, nil, r.URL.Path))
	}
	b, err := v.plainPage(r.URL.Path)
	if err != nil {
		return err
	}
	pages.Write(w, http.StatusOK, b)
	return nil
}

// plainPage answers the public page of the version without prefill, as
// path shows it. The plain page of a version never changes: it is rendered
// the first time, then read without a lock.
func (v *formVersion) plainPage(path string) ([]byte, error) {
	if p := v.page.Load(); p != nil {
		return *p, nil
	}
	return v.renderPlainPage(path)
}

// renderPlainPage renders the plain page once, for plainPage.
func (v *formVersion) renderPlainPage(path string) ([]byte, error) {
	v.pageMu.Lock()
	defer v.pageMu.Unlock()
	if p := v.page.Load(); p != nil {
		return *p, nil
	}
	b, err := pages.Render(formPage, buildPage(v, nil, nil, nil, path))
	if err != nil {
		return nil, err
	}
	v.page.Store(&b)
	return b, nil
}

// publicError answers JSON to JSON clients and an HTML page to browsers.
func (s *Service) publicError(w http.ResponseWriter, r *http.Request, err error) error {
	if wire.WantsJSON(r) {
		return err
	}
	ae := &wire.Error{Status: http.StatusInternalServerError, Message: "internal error"}
	if a, ok := err.(*wire.Error); ok {
		ae = a
	}
	_, t := pages.Language("")
	return pages.WriteMessage(w, ae.Status, pages.Message{Lang: "en", Title: t.FormGoneTitle, Message: ae.Message})
}
