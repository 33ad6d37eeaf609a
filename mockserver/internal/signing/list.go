package signing

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Paging of GET {Sign}/api/v1/casefiles
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List").
const (
	defaultPerPage = 100
	maxPerPage     = 1000
)

// caseFileQuery is the parsed query of GET {Sign}/api/v1/casefiles.
type caseFileQuery struct {
	statuses      []int
	title         string // substring, any case
	metaData      string // substring, any case
	reference     string // exact
	ids           []int64
	folderIDs     []int64
	created       window
	completed     window
	activated     window
	expires       window
	updated       window
	sort          []sortKey
	paginate      bool
	page, perPage int
	limit, offset int // without x-paginate; limit 0: all
}

// window bounds one of a case file's times.
type window struct {
	after, before int64 // unix seconds, exclusive; 0: no bound
}

// contains tells whether t lies in the window. A case file without the
// time (zero: never completed, never activated, no expiry) lies in no
// window that has a bound.
func (w window) contains(t time.Time) bool {
	if w.after == 0 && w.before == 0 {
		return true
	}
	if t.IsZero() {
		return false
	}
	u := t.Unix()
	return (w.after == 0 || u > w.after) && (w.before == 0 || u < w.before)
}

// queryWindow reads the window of name+"After" and name+"Before".
func queryWindow(p *wire.Problems, q url.Values, name string) window {
	return window{after: queryUnix(p, q, name+"After"), before: queryUnix(p, q, name+"Before")}
}

// sortKey is one key of the sort order.
type sortKey struct {
	field string
	desc  bool
}

// caseFileSortFields are the fields a list can be sorted by
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List"): the last four are times a case file may lack.
var caseFileSortFields = []string{"created", "id", "title", "status", "updated", "completed", "activated", "expireAt", "sendAt"}

// parseCaseFileQuery reads the filters status (comma-separated), title,
// metaData, reference, ids and folderIds (comma-separated, positive), the time
// windows createdAfter/createdBefore, completedAfter/completedBefore (when the
// case file completed), activatedAfter/activatedBefore,
// expiresAfter/expiresBefore (expireAt) and updatedAfter/updatedBefore (unix
// seconds or RFC 3339; each bound exclusive; a case file without that time
// matches no bound on it), the order sort (fields, comma-separated, "-" for
// descending; default -created) with the SDKs' order=asc|desc, and the paging:
// with the header x-paginate: true, page (from 1) and perPage or per_page
// (default 100); else the PHP SDK's limit and offset. Malformed values are one
// 422 naming each parameter
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List").
func parseCaseFileQuery(r *http.Request) (caseFileQuery, error) {
	q := r.URL.Query()
	var p wire.Problems
	cq := caseFileQuery{title: strings.ToLower(q.Get("title")), metaData: strings.ToLower(q.Get("metaData")),
		reference: q.Get("reference"), page: 1, perPage: defaultPerPage,
		paginate: strings.EqualFold(strings.TrimSpace(r.Header.Get("x-paginate")), "true")}
	for _, v := range splitList(q.Get("status")) {
		n, err := strconv.Atoi(v)
		if err != nil || n < cfNew || n > cfAnonymized {
			p.Add("status", "must be case file statuses from 0 to 8, comma-separated")
			break
		}
		cq.statuses = append(cq.statuses, n)
	}
	for _, v := range splitList(q.Get("ids")) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			p.Add("ids", "must be positive case file ids, comma-separated")
			break
		}
		cq.ids = append(cq.ids, n)
	}
	for _, v := range splitList(q.Get("folderIds")) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			p.Add("folderIds", "must be positive folder ids, comma-separated")
			break
		}
		cq.folderIDs = append(cq.folderIDs, n)
	}
	cq.created = queryWindow(&p, q, "created")
	cq.completed = queryWindow(&p, q, "completed")
	cq.activated = queryWindow(&p, q, "activated")
	cq.expires = queryWindow(&p, q, "expires")
	cq.updated = queryWindow(&p, q, "updated")
	cq.sort = parseSort(&p, q.Get("sort"), q.Get("order"))
	cq.page = queryInt(&p, q, 1, -1, "page")
	cq.perPage = queryInt(&p, q, defaultPerPage, maxPerPage, "perPage", "per_page")
	cq.limit = queryInt(&p, q, 0, maxPerPage, "limit")
	cq.offset = queryInt(&p, q, 0, -1, "offset")
	return cq, p.Err()
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// queryUnix reads unix seconds (or an RFC 3339 time) from the query.
func queryUnix(p *wire.Problems, q url.Values, name string) int64 {
	v := q.Get(name)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return n
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.Unix()
	}
	p.Add(name, "must be a time in unix seconds")
	return 0
}

// queryInt reads the first of names present: an integer of at least lo
// (with lo 0 for limit and offset, 1 otherwise) and at most hi (hi < 0: no
// bound); def when none is present.
func queryInt(p *wire.Problems, q url.Values, def, hi int, names ...string) int {
	for _, name := range names {
		v := q.Get(name)
		if v == "" {
			continue
		}
		lo := 1
		if def == 0 {
			lo = 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || (hi >= 0 && n > hi) {
			if hi >= 0 {
				p.Add(name, "must be an integer from %d to %d", lo, hi)
			} else {
				p.Add(name, "must be an integer of at least %d", lo)
			}
			return def
		}
		return n
	}
	return def
}

// parseSort reads sort ("-created,title") and order ("desc,asc", used for
// keys without a sign).
func parseSort(p *wire.Problems, sort, order string) []sortKey {
	fields, dirs := splitList(sort), splitList(order)
	if len(fields) == 0 {
		return []sortKey{{field: "created", desc: true}}
	}
	var keys []sortKey
	for i, f := range fields {
		k := sortKey{field: strings.TrimPrefix(f, "-"), desc: strings.HasPrefix(f, "-")}
		if !strings.HasPrefix(f, "-") && i < len(dirs) {
			switch strings.ToLower(dirs[i]) {
			case "desc":
				k.desc = true
			case "asc":
			default:
				p.Add("order", "must be asc or desc, comma-separated")
			}
		}
		if !slices.Contains(caseFileSortFields, k.field) {
			p.Add("sort", "must name fields among %s, each optionally prefixed with -", strings.Join(caseFileSortFields, ", "))
			return nil
		}
		keys = append(keys, k)
	}
	return keys
}

// matches tells whether a case file passes the query's filters; the
// caller holds the store's lock.
func (cq *caseFileQuery) matches(cf *CaseFile) bool {
	return (len(cq.statuses) == 0 || slices.Contains(cq.statuses, cf.Status)) &&
		(len(cq.ids) == 0 || slices.Contains(cq.ids, cf.ID)) &&
		(len(cq.folderIDs) == 0 || slices.Contains(cq.folderIDs, cf.FolderID)) &&
		strings.Contains(strings.ToLower(cf.Title), cq.title) &&
		strings.Contains(strings.ToLower(cf.MetaData), cq.metaData) &&
		(cq.reference == "" || cf.Reference == cq.reference) &&
		cq.created.contains(cf.Created) && cq.completed.contains(cf.Completed) &&
		cq.activated.contains(cf.Activated) && cq.expires.contains(cf.ExpireAt) &&
		cq.updated.contains(cf.Updated)
}

// compare orders two case files by the query's sort keys, then by id in the
// direction of the first key, so the order is total and pages neither skip nor
// repeat a case file. On the optional times (completed, activated, expireAt,
// sendAt) a case file without the time comes after every case file with one, in
// either direction
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List").
func (cq *caseFileQuery) compare(a, b *CaseFile) int {
	for _, k := range cq.sort {
		if ta, tb, ok := optionalTimes(k.field, a, b); ok {
			if c := cmp.Compare(boolRank(ta.IsZero()), boolRank(tb.IsZero())); c != 0 {
				return c // the one without the time last, whatever the direction
			}
		}
		c := compareField(k.field, a, b)
		if k.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	if len(cq.sort) > 0 && cq.sort[0].desc {
		return cmp.Compare(b.ID, a.ID)
	}
	return cmp.Compare(a.ID, b.ID)
}

// optionalTimes answers a's and b's value of field when it is a time a
// case file may lack, and ok false for the other fields.
func optionalTimes(field string, a, b *CaseFile) (ta, tb time.Time, ok bool) {
	switch field {
	case "completed":
		return a.Completed, b.Completed, true
	case "activated":
		return a.Activated, b.Activated, true
	case "expireAt":
		return a.ExpireAt, b.ExpireAt, true
	case "sendAt":
		return a.SendAt, b.SendAt, true
	}
	return time.Time{}, time.Time{}, false
}

// boolRank is 1 for true, 0 for false.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareField compares a and b on one sort field, ascending; times
// compare to the second, as the wire shows them.
func compareField(field string, a, b *CaseFile) int {
	if ta, tb, ok := optionalTimes(field, a, b); ok {
		return cmp.Compare(ta.Unix(), tb.Unix())
	}
	switch field {
	case "created":
		return a.Created.Compare(b.Created)
	case "updated":
		return a.Updated.Compare(b.Updated)
	case "title":
		return cmp.Compare(a.Title, b.Title)
	case "status":
		return cmp.Compare(a.Status, b.Status)
	case "id":
		return cmp.Compare(a.ID, b.ID)
	}
	return 0
}

// HandleListCaseFiles is GET {Sign}/api/v1/casefiles: the case files the user
// may read (their own; a super API user's or the shared folder's within the
// customer), filtered and sorted as parseCaseFileQuery reads, as a bare JSON
// array. With x-paginate: true it answers one page and, while more follow, a
// Link header to the next one, rel="next", carrying page and both perPage and
// per_page (the .NET SDK reads per_page from it;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List").
func (s *Service) HandleListCaseFiles(w http.ResponseWriter, r *http.Request) error {
	cq, err := parseCaseFileQuery(r)
	if err != nil {
		return err
	}
	u := userFrom(r)
	s.cases.mu.RLock()
	var matched []*CaseFile
	for _, cf := range s.cases.files {
		if visible(cf, u) && cq.matches(cf) {
			matched = append(matched, cf)
		}
	}
	slices.SortFunc(matched, cq.compare)
	from, to := 0, len(matched)
	switch {
	case cq.paginate:
		if cq.page-1 < len(matched)/cq.perPage+1 { // else past the end; no product that overflows
			from = min((cq.page-1)*cq.perPage, len(matched))
		} else {
			from = len(matched)
		}
		to = min(from+cq.perPage, len(matched))
	case cq.offset > 0 || cq.limit > 0:
		from = min(cq.offset, len(matched))
		if cq.limit > 0 {
			to = min(from+cq.limit, len(matched))
		}
	}
	out := make([]CaseFileJSON, 0, to-from)
	for _, cf := range matched[from:to] {
		out = append(out, viewLocked(cf))
	}
	s.cases.mu.RUnlock()
	if cq.paginate && to < len(matched) {
		next := r.URL.Query()
		next.Set("page", strconv.Itoa(cq.page+1))
		next.Set("perPage", strconv.Itoa(cq.perPage))
		next.Set("per_page", strconv.Itoa(cq.perPage))
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?%s>; rel="next"`, wire.BaseURL(r), r.URL.Path, next.Encode()))
	}
	wire.WriteJSON(w, http.StatusOK, out)
	return nil
}
