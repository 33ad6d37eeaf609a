package forms

import (
	"fmt"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Prefilled requests
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// v1 takes answers keyed by field name, v2 answers keyed by section slug, each
// a list with one object per instance (always a list, also for a section
// without multipleEntries). Both answer 200 {"requestUrl","requestId"}.

// prefillV1 is the body of POST /v1/forms/{id}/requests.
type prefillV1 struct {
	Answers map[string]prefillAnswer `json:"answers"`
}

// prefillV2 is the body of POST /v2/forms/{id}/requests.
type prefillV2 struct {
	Answers map[string][]map[string]prefillAnswer `json:"answers"`
}

// HandleCreateRequest is POST {Forms}/v1/forms/{externalId}/requests: a prefilled request (v1 answers).
func (s *Service) HandleCreateRequest(w http.ResponseWriter, r *http.Request) error {
	var body prefillV1
	if err := wire.DecodeJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	if body.Answers == nil {
		return wire.Problems{{Field: "answers", Message: "is required"}}.Err()
	}
	return s.storeRequest(w, r, func(v *formVersion) (map[int][]map[string]prefillAnswer, wire.Problems) {
		return prefillSectionsV1(v, body.Answers)
	})
}

// HandleCreateRequestV2 is POST {Forms}/v2/forms/{externalId}/requests: a prefilled request (v2 sections).
func (s *Service) HandleCreateRequestV2(w http.ResponseWriter, r *http.Request) error {
	var body prefillV2
	if err := wire.DecodeJSON(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	if body.Answers == nil {
		return wire.Problems{{Field: "answers", Message: "is required"}}.Err()
	}
	return s.storeRequest(w, r, func(v *formVersion) (map[int][]map[string]prefillAnswer, wire.Problems) {
		return prefillSectionsV2(v, body.Answers)
	})
}

// storeRequest stores a prefilled request built by build and answers 200
// with its link.
func (s *Service) storeRequest(w http.ResponseWriter, r *http.Request, build func(*formVersion) (map[int][]map[string]prefillAnswer, wire.Problems)) error {
	id := r.PathValue("externalId")
	pf, err := s.forms.addRequest(id, userFrom(r), build)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, map[string]string{"requestUrl": requestURL(wire.BaseURL(r), id, pf.id), "requestId": pf.id})
	return nil
}

// prefillSectionsV1 checks v1 answers: every key names an input field that
// can be prefilled and every value suits its field. A field of a multi-entry
// section prefills its first instance.
func prefillSectionsV1(v *formVersion, answers map[string]prefillAnswer) (map[int][]map[string]prefillAnswer, wire.Problems) {
	var p wire.Problems
	secs := map[int][]map[string]prefillAnswer{}
	for _, name := range sortedKeys(answers) {
		i, ok := v.byName[name]
		if !ok {
			p.Add("answers."+name, "no field named %q in the form", name)
			continue
		}
		if msg := prefillProblem(v.inputs[i].def, answers[name].Value); msg != "" {
			p.Add("answers."+name, "%s", msg)
			continue
		}
		si := v.inputs[i].section
		if secs[si] == nil {
			secs[si] = []map[string]prefillAnswer{{}}
		}
		secs[si][0][name] = answers[name]
	}
	return secs, p
}

// prefillSectionsV2 checks v2 answers: every key is a section slug, its list
// has at least one and at most as many instances as the section takes (one
// without multipleEntries), and every field is an input field of that
// section that can be prefilled with a value that suits it.
func prefillSectionsV2(v *formVersion, answers map[string][]map[string]prefillAnswer) (map[int][]map[string]prefillAnswer, wire.Problems) {
	var p wire.Problems
	bySlug := map[string]int{}
	for si, sec := range v.sections {
		bySlug[sec.Slug] = si
	}
	secs := map[int][]map[string]prefillAnswer{}
	for _, slug := range sortedKeys(answers) {
		si, ok := bySlug[slug]
		path := "answers." + slug
		if !ok {
			p.Add(path, "no section with slug %q in the form", slug)
			continue
		}
		insts, max := answers[slug], 1
		if m := v.sections[si].MultipleEntries; m != nil {
			max = m.Max
		}
		if len(insts) == 0 || len(insts) > max {
			p.Add(path, "must list from 1 to %d instances, one object each", max)
			continue
		}
		for k, inst := range insts {
			for _, name := range sortedKeys(inst) {
				fp := fmt.Sprintf("%s[%d].%s", path, k, name)
				i, ok := v.byName[name]
				if !ok || v.inputs[i].section != si {
					p.Add(fp, "no field named %q in section %q", name, slug)
					continue
				}
				if msg := prefillProblem(v.inputs[i].def, inst[name].Value); msg != "" {
					p.Add(fp, "%s", msg)
				}
			}
			if inst == nil {
				insts[k] = map[string]prefillAnswer{}
			}
		}
		secs[si] = insts
	}
	return secs, p
}

// prefillProblem answers why a field cannot be prefilled with value, or "".
func prefillProblem(def *fieldJSON, value string) string {
	if def.Type == typeFile {
		return "a FILE field cannot be prefilled"
	}
	return checkValue(def, value)
}

// HandleRequestAnswers is GET {Forms}/v1/forms/{externalId}/requests/{requestId}/answers.
func (s *Service) HandleRequestAnswers(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("externalId")
	sub, err := s.forms.requestSubmission(id, r.PathValue("requestId"), userFrom(r))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, sub.answers(id))
	return nil
}
