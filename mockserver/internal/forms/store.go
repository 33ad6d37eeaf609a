package forms

import (
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// formStore is the forms service's state: forms with their versions,
// prefilled requests and submissions. One lock guards it all, so that
// submission ids are allocated gaplessly.
type formStore struct {
	mu       sync.RWMutex // writers Lock; publicForm, on every page view, RLocks
	forms    map[string]*form
	nextSub  int64
	requests map[string]*form // prefill request id → form
	limits   Limits           // the server's per-account limits
}

func newFormStore(l Limits) *formStore {
	f := &formStore{limits: l}
	f.reset()
	return f
}

func (f *formStore) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forms, f.requests, f.nextSub = map[string]*form{}, map[string]*form{}, 1
}

// create stores a new form owned by u: DRAFT, or ACTIVE when publish is set
// (?publish=true). It answers the form as GET shows it.
func (f *formStore) create(def *formJSON, u *user, now time.Time, publish bool, base string) (formJSON, error) {
	if err := f.limits.TakeForm(u.CustomerID); err != nil {
		return formJSON{}, err
	}
	fm := &form{externalID: ids.UUID(), ownerID: u.ID, customerID: u.CustomerID, status: stateDraft,
		draft: newVersion(1, def), requests: map[string]*prefill{}, created: now}
	if publish {
		fm.live, fm.draft, fm.status = fm.draft, nil, stateActive
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forms[fm.externalID] = fm
	return fm.view(base), nil
}

// get answers a form the user may see: 404 when it does not exist or
// belongs to another customer, 403 when it belongs to another user of the
// customer and u is not a super API user. Call with f.mu held.
func (f *formStore) get(id string, u *user) (*form, error) {
	fm := f.forms[id]
	if fm == nil || fm.customerID != u.CustomerID {
		return nil, wire.NotFound("no form %q", id)
	}
	if fm.ownerID != u.ID && !u.SuperUser {
		return nil, wire.Forbidden("form %q belongs to another user", id)
	}
	return fm, nil
}

// view answers the form as GET shows it: the draft of a DRAFT form, else the
// published version, with the public URL while ACTIVE.
func (fm *form) view(base string) formJSON {
	if fm.status == stateDraft {
		return fm.draft.json(fm.externalID, stateDraft, "")
	}
	pub := ""
	if fm.status == stateActive {
		pub = publicFormURL(base, fm.externalID)
	}
	j := fm.live.json(fm.externalID, fm.status, pub)
	if fm.draft != nil {
		j.DraftVersion = fm.draft.number
	}
	return j
}

// update replaces the definition: in place while DRAFT; as a new DRAFT
// version (the live one keeps serving) while ACTIVE. It answers the updated
// version, or with publish (?publish=true) makes it live at once and answers
// the form as GET shows it.
func (f *formStore) update(id string, u *user, def *formJSON, publish bool, base string) (formJSON, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fm, err := f.get(id, u)
	if err != nil {
		return formJSON{}, err
	}
	switch fm.status {
	case stateDraft:
		fm.draft = newVersion(fm.draft.number, def)
	case stateActive:
		if max := f.limits.Versions; max >= 0 && fm.live.number+1 > max {
			return formJSON{}, f.limits.VersionsError(fm.customerID)
		}
		fm.draft = newVersion(fm.live.number+1, def)
	default:
		return formJSON{}, wire.Conflict("form %q is %s: an archived form cannot be updated", id, fm.status)
	}
	if publish {
		fm.live, fm.draft, fm.status = fm.draft, nil, stateActive
		return fm.view(base), nil
	}
	return fm.draft.json(fm.externalID, stateDraft, ""), nil
}

// publish makes the draft version live: DRAFT → ACTIVE, or ACTIVE with an
// unpublished version → ACTIVE with that version live.
func (f *formStore) publish(id string, u *user, base string) (formJSON, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fm, err := f.get(id, u)
	if err != nil {
		return formJSON{}, err
	}
	switch {
	case fm.status == stateDraft, fm.status == stateActive && fm.draft != nil:
		fm.live, fm.draft, fm.status = fm.draft, nil, stateActive
	case fm.status == stateActive:
		return formJSON{}, wire.Conflict("form %q is ACTIVE with version %d live and no unpublished version to publish", id, fm.live.number)
	default:
		return formJSON{}, wire.Conflict("form %q is %s: an archived form cannot be published", id, fm.status)
	}
	return fm.view(base), nil
}

// archive moves an ACTIVE or DRAFT form to ARCHIVED
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1,
// the vendor archives a draft with 200): its public URL stops working. An
// archived draft keeps its definition as the form's version.
func (f *formStore) archive(id string, u *user, base string) (formJSON, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fm, err := f.get(id, u)
	if err != nil {
		return formJSON{}, err
	}
	switch fm.status {
	case stateActive:
	case stateDraft:
		fm.live, fm.draft = fm.draft, nil
	default:
		return formJSON{}, wire.Conflict("form %q is %s: only an ACTIVE or DRAFT form can be archived", id, fm.status)
	}
	fm.status = stateArchived
	return fm.view(base), nil
}

// addRequest stores a prefilled request for an ACTIVE form. build checks
// the answers against the live version and makes the request's sections.
func (f *formStore) addRequest(id string, u *user, build func(*formVersion) (map[int][]map[string]prefillAnswer, wire.Problems)) (*prefill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fm, err := f.get(id, u)
	if err != nil {
		return nil, err
	}
	if fm.status != stateActive {
		return nil, wire.Conflict("form %q is %s: prefilled requests need an ACTIVE form", id, fm.status)
	}
	secs, p := build(fm.live)
	if len(p) > 0 {
		return nil, p.Err()
	}
	if err := f.limits.TakePrefill(fm.customerID); err != nil {
		return nil, err
	}
	pf := &prefill{id: ids.UUID(), sections: secs}
	fm.requests[pf.id] = pf
	f.requests[pf.id] = fm
	return pf, nil
}

// requestSubmission answers the latest submission made through a prefilled
// request of a form that is ACTIVE or ARCHIVED; 404 before there is one.
func (f *formStore) requestSubmission(id, requestID string, u *user) (*submission, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fm, err := f.get(id, u)
	if err != nil {
		return nil, err
	}
	pf := fm.requests[requestID]
	switch {
	case pf == nil:
		return nil, wire.NotFound("no prefilled request %q for form %q", requestID, id)
	case fm.status == stateDraft:
		return nil, wire.NotFound("form %q is DRAFT: request answers need an ACTIVE or ARCHIVED form", id)
	case pf.sub == nil:
		return nil, wire.NotFound("no submission yet through prefilled request %q", requestID)
	}
	return pf.sub, nil
}

// publicForm answers the live version and prefill of an ACTIVE form for the
// public page; requestID may be empty.
func (f *formStore) publicForm(id, requestID string) (*form, *formVersion, *prefill, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	fm := f.forms[id]
	if fm == nil || fm.status == stateDraft {
		return nil, nil, nil, wire.NotFound("no form %q", id)
	}
	if fm.status != stateActive {
		return nil, nil, nil, wire.NotFound("form %q is %s and accepts no submissions", id, fm.status)
	}
	var pf *prefill
	if requestID != "" {
		if pf = fm.requests[requestID]; pf == nil {
			return nil, nil, nil, wire.NotFound("no prefilled request %q for form %q", requestID, id)
		}
	}
	return fm, fm.live, pf, nil
}
