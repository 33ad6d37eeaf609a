package forms

import (
	"cmp"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// publicFormURL is the public page of a form.
func publicFormURL(base, externalID string) string { return base + "/public/forms/" + externalID }

// requestURL is the public page of a prefilled request.
func requestURL(base, externalID, requestID string) string {
	return publicFormURL(base, externalID) + "/requests/" + requestID
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeForm reads and validates a form definition.
func (s *Service) decodeForm(w http.ResponseWriter, r *http.Request) (*formJSON, error) {
	var def formJSON
	if err := wire.DecodeJSON(w, r, s.cfg.MaxBodyBytes, &def); err != nil {
		return nil, err
	}
	if p := validateForm(&def); len(p) > 0 {
		return nil, p.Err()
	}
	return &def, nil
}

// publishParam reads ?publish=true, which publishes a created or updated form
// in the same call
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
func publishParam(r *http.Request) (bool, error) {
	v := r.URL.Query().Get("publish")
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, wire.Problems{{Field: "publish", Message: "must be true or false"}}.Err()
	}
	return b, nil
}

// HandleCreateForm is POST {Forms}/v1/forms[?publish=true] → 201 with the form.
func (s *Service) HandleCreateForm(w http.ResponseWriter, r *http.Request) error {
	publish, err := publishParam(r)
	if err != nil {
		return err
	}
	def, err := s.decodeForm(w, r)
	if err != nil {
		return err
	}
	view, err := s.forms.create(def, userFrom(r), s.Now(), publish, wire.BaseURL(r))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusCreated, view)
	return nil
}

// HandleGetForm is GET {Forms}/v1/forms/{externalId}: the form as its owner sees it.
func (s *Service) HandleGetForm(w http.ResponseWriter, r *http.Request) error {
	s.forms.mu.Lock()
	fm, err := s.forms.get(r.PathValue("externalId"), userFrom(r))
	var view formJSON
	if err == nil {
		view = fm.view(wire.BaseURL(r))
	}
	s.forms.mu.Unlock()
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, view)
	return nil
}

// HandleUpdateForm is PUT {Forms}/v1/forms/{externalId}[?publish=true] (see formStore.update).
func (s *Service) HandleUpdateForm(w http.ResponseWriter, r *http.Request) error {
	publish, err := publishParam(r)
	if err != nil {
		return err
	}
	def, err := s.decodeForm(w, r)
	if err != nil {
		return err
	}
	view, err := s.forms.update(r.PathValue("externalId"), userFrom(r), def, publish, wire.BaseURL(r))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, view)
	return nil
}

// HandlePublishForm is POST {Forms}/v1/forms/{externalId}/publish.
func (s *Service) HandlePublishForm(w http.ResponseWriter, r *http.Request) error {
	view, err := s.forms.publish(r.PathValue("externalId"), userFrom(r), wire.BaseURL(r))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, view)
	return nil
}

// HandleArchiveForm is POST {Forms}/v1/forms/{externalId}/archive.
func (s *Service) HandleArchiveForm(w http.ResponseWriter, r *http.Request) error {
	view, err := s.forms.archive(r.PathValue("externalId"), userFrom(r), wire.BaseURL(r))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, view)
	return nil
}

// listQuery is the parsed query of GET .../submissions.
type listQuery struct {
	limit, offset   int
	after, before   time.Time
	hasAfter, hasBe bool
}

// parseListQuery reads limit (1..1000, default 10), offset (≥ 0) and the
// optional completedAfter and completedBefore (RFC 3339).
func parseListQuery(r *http.Request) (listQuery, error) {
	q := r.URL.Query()
	lq := listQuery{limit: 10}
	var p wire.Problems
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			p.Add("limit", "must be an integer from 1 to 1000")
		}
		lq.limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			p.Add("offset", "must be an integer of at least 0")
		}
		lq.offset = n
	}
	for _, tf := range []struct {
		name string
		t    *time.Time
		has  *bool
	}{{"completedAfter", &lq.after, &lq.hasAfter}, {"completedBefore", &lq.before, &lq.hasBe}} {
		if v := q.Get(tf.name); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				p.Add(tf.name, "must be an RFC 3339 time")
			}
			*tf.t, *tf.has = t, true
		}
	}
	return lq, p.Err()
}

type submissionJSON struct {
	SubmissionID int64     `json:"submissionId"`
	CaseFileID   int64     `json:"casefileId"`
	FormVersion  int       `json:"formVersion"`
	CompletedAt  time.Time `json:"completedAt"`
}

// HandleListSubmissions answers a page of a form's submissions. A form's
// submissions are ordered by id and by completion time alike, so the
// completedAfter and completedBefore bounds are found by binary search and
// a page costs O(log n + limit) under the lock, whatever the offset.
func (s *Service) HandleListSubmissions(w http.ResponseWriter, r *http.Request) error {
	lq, err := parseListQuery(r)
	if err != nil {
		return err
	}
	s.forms.mu.Lock()
	fm, err := s.forms.get(r.PathValue("externalId"), userFrom(r))
	var page []*submission
	total := 0
	if err == nil {
		subs := fm.subs
		lo, hi := 0, len(subs)
		if lq.hasAfter {
			lo = sort.Search(len(subs), func(i int) bool { return subs[i].completedAt.After(lq.after) })
		}
		if lq.hasBe {
			hi = sort.Search(len(subs), func(i int) bool { return !subs[i].completedAt.Before(lq.before) })
		}
		hi = max(hi, lo)
		total = hi - lo
		from := lo + min(lq.offset, total) // offset may be as large as an int: no sum before the min
		to := from + min(lq.limit, hi-from)
		page = slices.Clone(subs[from:to])
	}
	s.forms.mu.Unlock()
	if err != nil {
		return err
	}
	items := make([]submissionJSON, 0, len(page))
	for _, sub := range page {
		items = append(items, submissionJSON{SubmissionID: sub.id, CaseFileID: sub.caseFileID,
			FormVersion: sub.version.number, CompletedAt: sub.completedAt.UTC()})
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items, "limit": lq.limit, "offset": lq.offset, "total": total})
	return nil
}

// findSubmission answers a submission of a form by id.
func findSubmission(subs []*submission, id int64) *submission {
	i, ok := slices.BinarySearchFunc(subs, id, func(s *submission, id int64) int { return cmp.Compare(s.id, id) })
	if !ok {
		return nil
	}
	return subs[i]
}
