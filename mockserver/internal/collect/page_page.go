package collect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// pageData is what the page template renders.
type pageData struct {
	Title, Description, Action, Lang string
	T                                pageText
	Sections                         []pageSection
	Errors                           []wire.FieldError
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
	Required, Locked, Hidden                             bool
	Multiline                                            bool // a TEXT field drawn as a textarea
	Radio                                                bool // a CHOICE field with layout RADIO
	Options                                              []optionJSON
	Content                                              template.HTML
	Multi                                                bool     // a multi-entry field
	Max                                                  int      // its most values
	Values                                               []string // its values (at least one input)
}

// buildPage lays out a version with prefill, a rejected submission's posted
// answers (in, nil on GET) and its errors.
func buildPage(v *formVersion, pf *prefill, in *submissionInput, errs []wire.FieldError, action string) pageData {
	values := make([]string, len(v.inputs))
	for i, f := range v.inputs {
		values[i], _ = pageValue(pf, in, f, 0, firstKey(v, f))
	}
	visible, secVisible := v.visibility(values)
	errByField := map[string]string{}
	for _, e := range errs {
		errByField[e.Field] = e.Message
	}
	lang, text := pageLanguage(v.language)
	pd := pageData{Title: cmpOr(v.name, "Form"), Description: v.description, Action: action, Errors: errs, Lang: lang, T: text}
	lay := pageLayout{v: v, pf: pf, in: in, values: values, visible: visible, secVisible: secVisible, errs: errByField}
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
	}
	return pd
}

// mergeHTML replaces each {{name}} of the integrator's HTML with a span that
// shows the (escaped) answer and that the page's script keeps up to date.
func mergeHTML(content string, value func(string) string) template.HTML {
	return template.HTML(replaceMergeFields(content, func(name string) string { // the form author's own HTML
		return fmt.Sprintf(`<span class="merge" data-merge="%s">%s</span>`, html.EscapeString(name), html.EscapeString(value(name)))
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

// renderPage writes a template as an HTML page.
func (s *Service) renderPage(w http.ResponseWriter, status int, name string, data any) error {
	b, err := s.renderBytes(name, data)
	if err != nil {
		return err
	}
	writeHTML(w, status, b)
	return nil
}

func (s *Service) renderBytes(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, fmt.Errorf("render %s page: %w", name, err)
	}
	return buf.Bytes(), nil
}

func writeHTML(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// wantsJSON tells whether the client asked for JSON answers.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// HandlePublicPage is GET /public/forms/{externalId}[/requests/{requestId}]: the form as an HTML page.
func (s *Service) HandlePublicPage(w http.ResponseWriter, r *http.Request) error {
	_, v, pf, err := s.forms.publicForm(r.PathValue("externalId"), r.PathValue("requestId"))
	if err != nil {
		return s.publicError(w, r, err)
	}
	if pf != nil {
		return s.renderPage(w, http.StatusOK, "page", buildPage(v, pf, nil, nil, r.URL.Path))
	}
	// The plain page of a version never changes: render it once.
	b, err := v.plainPage(func() ([]byte, error) { return s.renderBytes("page", buildPage(v, nil, nil, nil, r.URL.Path)) })
	if err != nil {
		return err
	}
	writeHTML(w, http.StatusOK, b)
	return nil
}

// publicError answers JSON to JSON clients and an HTML page to browsers.
func (s *Service) publicError(w http.ResponseWriter, r *http.Request, err error) error {
	if wantsJSON(r) {
		return err
	}
	ae := &wire.Error{Status: http.StatusInternalServerError, Message: "internal error"}
	if a, ok := err.(*wire.Error); ok {
		ae = a
	}
	return s.renderPage(w, ae.Status, "gone", ae)
}
