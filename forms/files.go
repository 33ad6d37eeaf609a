package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/internal/transport"
)

// ErrFileURL is returned by DownloadFile for a File whose URL it refuses: not
// http or https, or on another host than the forms service. The download
// carries the account's access token, which must not go anywhere else.
var ErrFileURL = errors.New("forms: file URL refused")

// File is an attachment uploaded through a FILE field of a submission. URL
// downloads it with the account's token; use DownloadFile.
type File struct {
	Filename    string `json:"filename"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
	Size        int64  `json:"size"`
}

// fileList is the answer of the files call: a JSON array, or an object
// with the array under "items".
type fileList []File

func (l *fileList) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		var w struct {
			Items []File `json:"items"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return err
		}
		*l = w.Items
		return nil
	}
	return json.Unmarshal(b, (*[]File)(l))
}

// Files lists the attachments of a case file created by a form submission.
func (c *Client) Files(ctx context.Context, caseFileID int64) ([]File, error) {
	var out fileList
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    c.url("casefiles", strconv.FormatInt(caseFileID, 10), "files"),
		Auth:   transport.Bearer,
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: files of case file %d: %w", caseFileID, err)
	}
	return out, nil
}

// DownloadFile streams the content of f into w as it arrives, without
// holding the whole file in memory, and returns the number of bytes
// written. A relative f.URL is resolved against the forms endpoint. The
// request carries the account's access token, so DownloadFile refuses, with
// an error wrapping ErrFileURL and before sending anything, a URL that is
// not http or https or whose host (and port) differs from the forms
// endpoint's, and an http URL when the forms endpoint is https. On an
// error after some bytes were written, the count says how many.
func (c *Client) DownloadFile(ctx context.Context, f File, w io.Writer) (int64, error) {
	u, err := c.fileURL(f.URL)
	if err != nil {
		return 0, err
	}
	req := &transport.Request{Method: http.MethodGet, URL: u, Auth: transport.Bearer, Accept: "*/*"}
	n, err := c.t().Download(ctx, req, w)
	if err != nil {
		return n, fmt.Errorf("forms: download %q: %w", f.Filename, err)
	}
	return n, nil
}

// fileURL resolves raw against the forms endpoint and checks that the token
// may be sent there.
func (c *Client) fileURL(raw string) (string, error) {
	base, err := url.Parse(c.base())
	if err != nil {
		return "", fmt.Errorf("forms: forms endpoint %q: %w", c.base(), err)
	}
	if raw == "" {
		return "", fmt.Errorf("%w: the file has no URL", ErrFileURL)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrFileURL, err)
	}
	u := base.ResolveReference(ref)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%w: %q is not an http or https URL", ErrFileURL, raw)
	case hostKey(u) != hostKey(base):
		return "", fmt.Errorf("%w: %q is not on the forms service host %s", ErrFileURL, raw, base.Host)
	case u.Scheme == "http" && base.Scheme == "https":
		return "", fmt.Errorf("%w: %q is not https like the forms service", ErrFileURL, raw)
	}
	u.Host = base.Host // the same host, spelled as configured
	return u.String(), nil
}

// hostKey is the host and port of u, lower case, with the scheme's default
// port made explicit.
func hostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}
