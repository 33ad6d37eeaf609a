package casefiles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/internal/transport"
)

// ListOptions selects the case files of List and All. The zero value (or nil)
// selects every case file of the user, newest first, in pages of the platform's
// default size (100). The filters are query parameters of GET
// {Sign}/api/v1/casefiles
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// List).
type ListOptions struct {
	// Status, when set, selects case files in that status (sent as its
	// number, "status=5"):
	//
	//	s := casefiles.CaseFileCompleted
	//	opts := &casefiles.ListOptions{Status: &s}
	Status *CaseFileStatus `url:"-"`
	// Title selects case files by title.
	Title string `url:"title,omitempty"`
	// MetaData selects case files by CaseFile.MetaData (a criterion of the
	// platform's PHP client).
	MetaData string `url:"metaData,omitempty"`
	// Reference selects case files by CaseFile.Reference.
	Reference string `url:"reference,omitempty"`
	// IDs, when set, selects only these case files (sent as one
	// comma-separated list).
	IDs []int64 `url:"ids,comma,omitempty"`
	// CreatedAfter and CreatedBefore, when set, bound the creation time;
	// sent as unix seconds.
	CreatedAfter  time.Time `url:"createdAfter,unix,omitempty"`
	CreatedBefore time.Time `url:"createdBefore,unix,omitempty"`
	// CompletedAfter, when set, selects case files completed after it
	// (sent as unix seconds, "completedAfter"); a case file that never
	// completed does not match.
	CompletedAfter time.Time `url:"completedAfter,unix,omitempty"`
	// CompletedBefore, when set, selects case files completed before it
	// (sent as unix seconds, "completedBefore").
	CompletedBefore time.Time `url:"completedBefore,unix,omitempty"`
	// ActivatedAfter, when set, selects case files activated (sent to
	// their signers) after it (sent as unix seconds, "activatedAfter"); a
	// case file never activated does not match.
	ActivatedAfter time.Time `url:"activatedAfter,unix,omitempty"`
	// ActivatedBefore, when set, selects case files activated before it
	// (sent as unix seconds, "activatedBefore").
	ActivatedBefore time.Time `url:"activatedBefore,unix,omitempty"`
	// ExpiresAfter, when set, selects case files whose expiry
	// (Details.ExpireAt) is after it (sent as unix seconds,
	// "expiresAfter"); a case file without an expiry does not match.
	ExpiresAfter time.Time `url:"expiresAfter,unix,omitempty"`
	// ExpiresBefore, when set, selects case files whose expiry is before
	// it (sent as unix seconds, "expiresBefore").
	ExpiresBefore time.Time `url:"expiresBefore,unix,omitempty"`
	// UpdatedAfter, when set, selects case files last updated after it
	// (sent as unix seconds, "updatedAfter").
	UpdatedAfter time.Time `url:"updatedAfter,unix,omitempty"`
	// UpdatedBefore, when set, selects case files last updated before it
	// (sent as unix seconds, "updatedBefore").
	UpdatedBefore time.Time `url:"updatedBefore,unix,omitempty"`
	// FolderIDs, when set, selects only case files in these folders
	// (CaseFile.FolderID; sent as one comma-separated "folderIds").
	FolderIDs []int64 `url:"folderIds,comma,omitempty"`
	// Sort orders the case files by a field, descending with a leading "-":
	// empty means the platform's "-created" (newest first). The fields are
	// created, id, title, status, updated, completed, activated, expireAt and
	// sendAt; "-completed" with a CaseFileCompleted Status is the platform's
	// polling query
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files).
	Sort string `url:"sort,omitempty"`
	// Page is the page to read, from 1 (0: the first); All starts there.
	Page int `url:"page,omitempty"`
	// PerPage is the page size; 0: the platform's default, 100.
	PerPage int `url:"perPage,omitempty"`
}

// sortRx is a comma-separated list of field names, each with an optional
// leading "-" or "+".
var sortRx = regexp.MustCompile(`^[+-]?[A-Za-z][A-Za-z0-9_.]*(,[+-]?[A-Za-z][A-Za-z0-9_.]*)*$`)

// Validate checks the options before they are sent: Page, PerPage and the
// status 0 or more, IDs and FolderIDs positive, in each time window (Created,
// Completed, Activated, Expires, Updated) the After bound not after the
// Before bound when both are set, and Sort a list of field names.
func (o *ListOptions) Validate() error {
	if o == nil {
		return nil
	}
	var p problems
	if o.Status != nil && *o.Status < 0 {
		p.add("Status", "must be 0 or more, got %d", int(*o.Status))
	}
	for i, id := range o.IDs {
		if id <= 0 {
			p.add("IDs["+strconv.Itoa(i)+"]", "must be positive, got %d", id)
		}
	}
	for i, id := range o.FolderIDs {
		if id <= 0 {
			p.add("FolderIDs["+strconv.Itoa(i)+"]", "must be positive, got %d", id)
		}
	}
	for _, w := range []struct {
		name          string
		after, before time.Time
	}{
		{"Created", o.CreatedAfter, o.CreatedBefore},
		{"Completed", o.CompletedAfter, o.CompletedBefore},
		{"Activated", o.ActivatedAfter, o.ActivatedBefore},
		{"Expires", o.ExpiresAfter, o.ExpiresBefore},
		{"Updated", o.UpdatedAfter, o.UpdatedBefore},
	} {
		if !w.after.IsZero() && !w.before.IsZero() && w.after.After(w.before) {
			p.add(w.name+"After", "is after %sBefore", w.name)
		}
	}
	if o.Sort != "" && !sortRx.MatchString(o.Sort) {
		p.add("Sort", "must be field names separated by commas, each optionally after - or +, got %q", o.Sort)
	}
	if o.Page < 0 {
		p.add("Page", "must be 0 or more, got %d", o.Page)
	}
	if o.PerPage < 0 {
		p.add("PerPage", "must be 0 (the platform's default) or more, got %d", o.PerPage)
	}
	return invalid("list options", p...)
}

// listQuery is the query of one page. The status goes as its number (the
// querystring encoder would print CaseFileStatus's name). The page size goes
// under both names: perPage
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// List) and per_page, which the platform's own .NET client sends and its Link
// headers carry.
type listQuery struct {
	ListOptions
	StatusNumber *int `url:"status,omitempty"`
	PerPageAlias int  `url:"per_page,omitempty"`
}

// listAnswer is one page: a bare JSON array, or {"items":[...]}.
type listAnswer []wireCaseFile

// UnmarshalJSON implements json.Unmarshaler.
func (l *listAnswer) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		var w struct {
			Items []wireCaseFile `json:"items"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return err
		}
		*l = w.Items
		return nil
	}
	return json.Unmarshal(b, (*[]wireCaseFile)(l))
}

// List returns one page of the user's case files (opts.Page, from 1) that
// match opts, newest first unless opts.Sort says otherwise. It asks the
// platform for pages (the x-paginate header), so it never reads more than
// one page; All reads them all. Invalid options are refused with a
// *ValidationError before sending.
func (c *Client) List(ctx context.Context, opts *ListOptions) ([]Details, error) {
	items, _, err := c.listPage(ctx, opts)
	return items, err
}

// listPage reads one page and returns it with the number of the next page
// (0 when the answer has no Link rel="next").
func (c *Client) listPage(ctx context.Context, opts *ListOptions) ([]Details, int, error) {
	if err := opts.Validate(); err != nil {
		return nil, 0, err
	}
	var q listQuery
	if opts != nil {
		q.ListOptions = *opts
	}
	q.PerPageAlias = q.PerPage
	if q.Status != nil {
		n := int(*q.Status)
		q.StatusNumber = &n
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    transport.JoinURL(c.sign(), "api", "v1", "casefiles"),
		Query:  q,
		Auth:   transport.Bearer,
		Header: http.Header{"X-Paginate": {"true"}},
	}
	resp, err := c.t().Send(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("casefiles: list case files: %w", err)
	}
	defer resp.Body.Close()
	var page listAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, transport.MaxJSON)).Decode(&page); err != nil {
		return nil, 0, fmt.Errorf("casefiles: list case files: decoding the answer: %w", err)
	}
	items := make([]Details, len(page))
	for i := range page {
		items[i] = *page[i].details()
	}
	current := max(q.Page, 1)
	return items, nextPage(resp.Header, current), nil
}

// All iterates over every case file that matches opts, page after page
// from opts.Page on, newest first unless opts.Sort says otherwise. It works
// on a copy of opts (nil: every case file). It follows the platform's
// Link rel="next" header and ends after the page that has none, or after
// an empty page; at the first error it yields the error once (with a zero
// Details) and ends. Breaking out of the loop stops the requests. A case
// file seen on an earlier page (the list shifted under a new case file) is
// not yielded again; a page with nothing new ends the iteration with an
// error rather than looping.
func (c *Client) All(ctx context.Context, opts *ListOptions) iter.Seq2[Details, error] {
	o := ListOptions{}
	if opts != nil {
		o = *opts
		o.IDs = append([]int64(nil), opts.IDs...)
		o.FolderIDs = append([]int64(nil), opts.FolderIDs...)
	}
	o.Page = max(o.Page, 1)
	return func(yield func(Details, error) bool) {
		seen := map[int64]bool{}
		for {
			items, next, err := c.listPage(ctx, &o)
			if err != nil {
				yield(Details{}, err)
				return
			}
			fresh := 0
			for _, d := range items {
				if seen[d.ID] {
					continue
				}
				seen[d.ID] = true
				fresh++
				if !yield(d, nil) {
					return
				}
			}
			switch {
			case next == 0 || len(items) == 0:
				return
			case fresh == 0:
				yield(Details{}, fmt.Errorf("casefiles: list case files: page %d repeats earlier case files", o.Page))
				return
			}
			o.Page = next
		}
	}
}

// nextPage finds the Link rel="next" of an answer and returns its page
// number: the link's page parameter, or current+1 when it has none. It
// returns 0 when there is no next link, or when it would not move forward.
// Only the page number is taken from the link: the request is rebuilt from
// the options, so a link to another host never receives the token.
func nextPage(h http.Header, current int) int {
	target, ok := nextLink(h)
	if !ok {
		return 0
	}
	n := current + 1
	if u, err := url.Parse(target); err == nil {
		if p, err := strconv.Atoi(u.Query().Get("page")); err == nil {
			n = p
		}
	}
	if n <= current {
		return 0
	}
	return n
}

// nextLink returns the target of the Link header's rel="next" (RFC 8288).
// Targets may hold commas (the ids filter), so links are split at '<'.
func nextLink(h http.Header) (string, bool) {
	for _, v := range h.Values("Link") {
		for {
			i := strings.IndexByte(v, '<')
			if i < 0 {
				break
			}
			j := strings.IndexByte(v[i:], '>')
			if j < 0 {
				break
			}
			target, rest := v[i+1:i+j], v[i+j+1:]
			params := rest
			if k := strings.IndexByte(rest, '<'); k >= 0 {
				params, v = rest[:k], rest[k:]
			} else {
				v = ""
			}
			if hasRel(params, "next") {
				return target, true
			}
		}
	}
	return "", false
}

// hasRel reports whether link parameters ("; rel=\"next last\"") name rel.
func hasRel(params, rel string) bool {
	for _, p := range strings.Split(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
			continue
		}
		for _, r := range strings.Fields(strings.Trim(strings.TrimSpace(value), `",`)) {
			if strings.EqualFold(r, rel) {
				return true
			}
		}
	}
	return false
}

// Delete deletes a case file that is not completed: DELETE
// {Sign}/api/v1/casefiles/{id}, answered 200
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// Delete); Get then answers 404. The platform refuses to delete a completed
// case file with an error. A retry whose earlier attempt's answer was lost and
// that finds the case file gone counts as success.
func (c *Client) Delete(ctx context.Context, caseFileID int64) error {
	if caseFileID <= 0 {
		return invalid("request", Problem{Field: "caseFileID", Message: "must be positive"})
	}
	req := &transport.Request{
		Method:     http.MethodDelete,
		URL:        c.caseFileURL(caseFileID),
		Auth:       transport.Bearer,
		GoneIsDone: true,
	}
	if err := c.t().Do(ctx, req, nil); err != nil {
		return fmt.Errorf("casefiles: delete case file %d: %w", caseFileID, err)
	}
	return nil
}
