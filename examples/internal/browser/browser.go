// Package browser does over HTTP what a person does in a web browser on the
// mock server's public pages: fill in and submit a form page (with files),
// and sign on a signing page. The examples use it to play the end user.
//
// It reads the pages with a few patterns that fit the mock server's HTML; it
// is not a general HTML parser.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// maxPage bounds how much of a page is read.
const maxPage = 4 << 20

var (
	formAction = regexp.MustCompile(`<form\b[^>]*\baction="([^"]*)"`)
	inputTag   = regexp.MustCompile(`<input\b[^>]*>`)
	attr       = regexp.MustCompile(`\b(name|value|readonly)(?:="([^"]*)")?`)
	statusLine = regexp.MustCompile(`<p\b[^>]*\bid="status"[^>]*>([^<]*)</p>`)
)

// Browser is a person's browser. The zero value uses http.DefaultClient.
type Browser struct {
	Client *http.Client
}

// File is a file chosen in a FILE input.
type File struct {
	Field, Filename string
	Content         []byte
}

// Page is a form page as the browser saw it.
type Page struct {
	// Action is the absolute URL the page's form posts to.
	Action string
	// Locked are the read-only inputs (locked prefilled fields) with their
	// values: the browser sends them as they are.
	Locked map[string]string
}

// Submitted is the service's answer to an accepted submission.
type Submitted struct {
	SubmissionID int64 `json:"submissionId"`
	CaseFileID   int64 `json:"casefileId"`
}

func (b Browser) client() *http.Client {
	if b.Client != nil {
		return b.Client
	}
	return http.DefaultClient
}

// Open loads a form page and reads its form.
func (b Browser) Open(ctx context.Context, pageURL string) (*Page, error) {
	body, err := b.get(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	action, err := actionOf(pageURL, body)
	if err != nil {
		return nil, err
	}
	p := &Page{Action: action, Locked: map[string]string{}}
	for _, tag := range inputTag.FindAllString(body, -1) {
		var name, value string
		var readonly bool
		for _, m := range attr.FindAllStringSubmatch(tag, -1) {
			switch m[1] {
			case "name":
				name = html.UnescapeString(m[2])
			case "value":
				value = html.UnescapeString(m[2])
			case "readonly":
				readonly = true
			}
		}
		if readonly && name != "" {
			p.Locked[name] = value
		}
	}
	return p, nil
}

// Submit fills in the page's form with values and files and submits it as
// multipart/form-data, asking for a JSON answer. Locked inputs are sent with
// the page's values, whatever values says: a person cannot change them.
func (b Browser) Submit(ctx context.Context, p *Page, values map[string]string, files ...File) (*Submitted, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range values {
		if _, locked := p.Locked[k]; !locked {
			if err := mw.WriteField(k, v); err != nil {
				return nil, fmt.Errorf("fill in %s: %w", k, err)
			}
		}
	}
	for k, v := range p.Locked {
		if err := mw.WriteField(k, v); err != nil {
			return nil, fmt.Errorf("fill in %s: %w", k, err)
		}
	}
	for _, f := range files {
		w, err := mw.CreateFormFile(f.Field, f.Filename)
		if err == nil {
			_, err = w.Write(f.Content)
		}
		if err != nil {
			return nil, fmt.Errorf("attach %s: %w", f.Filename, err)
		}
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("build the form body: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Action, &buf)
	if err != nil {
		return nil, fmt.Errorf("submit the form: %w", err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	resp, err := b.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("submit the form: %w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return nil, fmt.Errorf("read the answer to the submission: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("the form page refused the submission: %s: %s", resp.Status, bytes.TrimSpace(answer))
	}
	var s Submitted
	if err := json.Unmarshal(answer, &s); err != nil {
		return nil, fmt.Errorf("decode the answer to the submission: %w", err)
	}
	return &s, nil
}

// Sign opens a signing link, then presses the page's Sign button. It answers
// the page's status line after signing.
func (b Browser) Sign(ctx context.Context, signingLink string) (string, error) {
	page, err := b.get(ctx, signingLink)
	if err != nil {
		return "", err
	}
	if !strings.Contains(page, `value="sign"`) {
		return "", fmt.Errorf("the signing page offers no Sign button: %q", status(page))
	}
	action, err := actionOf(signingLink, page)
	if err != nil {
		return "", err
	}
	form := url.Values{"action": {"sign"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, action, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	body, err := b.do(req)
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	return status(body), nil
}

// get loads a page and answers its HTML; any status but 200 is an error.
func (b Browser) get(ctx context.Context, pageURL string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, pageURL, nil)
	if err != nil {
		return "", fmt.Errorf("open page: %w", err)
	}
	body, err := b.do(req)
	if err != nil {
		return "", fmt.Errorf("open page: %w", err)
	}
	return body, nil
}

func (b Browser) do(req *http.Request) (string, error) {
	resp, err := b.client().Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxPage))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", pathOf(req.URL), err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s %s: %s: %s", req.Method, pathOf(req.URL), resp.Status, status(string(body)))
	}
	return string(body), nil
}

// actionOf answers the absolute URL the first form of page posts to.
func actionOf(pageURL, page string) (string, error) {
	m := formAction.FindStringSubmatch(page)
	if m == nil {
		return "", fmt.Errorf("the page at %s has no form", redactQuery(pageURL))
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return "", fmt.Errorf("page URL: %w", err)
	}
	ref, err := url.Parse(html.UnescapeString(m[1]))
	if err != nil {
		return "", fmt.Errorf("form action: %w", err)
	}
	return base.ResolveReference(ref).String(), nil
}

// status answers a page's status line, or the start of the page.
func status(page string) string {
	if m := statusLine.FindStringSubmatch(page); m != nil {
		return html.UnescapeString(m[1])
	}
	if len(page) > 200 {
		page = page[:200]
	}
	return strings.TrimSpace(page)
}

// pathOf answers the path of u for messages, without the secret token of a
// signing link.
func pathOf(u *url.URL) string {
	const signing = "/public/sign/"
	if i := strings.Index(u.Path, signing); i >= 0 {
		return u.Path[:i+len(signing)] + "…"
	}
	return u.Path
}

func redactQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i]
	}
	return u
}
