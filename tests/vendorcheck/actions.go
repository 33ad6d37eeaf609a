package vendorcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// What a person does between two stages of a collection, through the public
// pages and the mock's control API
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md).

// WaitJob polls the public queue status of a Send job until it leaves
// pending and processing, and returns its final jobStatus. It polls at most
// 12 times, well under the queue's limit of 20 per minute per job.
func (m *Mock) WaitJob(ctx context.Context, uuid, payloadHash string) (string, error) {
	body, err := json.Marshal(map[string]string{"uuid": uuid, "payloadHash": payloadHash})
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrMock, err)
	}
	var st struct {
		JobStatus string `json:"jobStatus"`
	}
	for range 12 {
		if err := m.do(ctx, http.MethodPost, m.URL+"/send/api/v1/queue/public/status", bytes.NewReader(body), "application/json", "", &st); err != nil {
			return "", err
		}
		if st.JobStatus != "pending" && st.JobStatus != "processing" {
			return st.JobStatus, nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%w: waiting for job: %w", ErrMock, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("%w: job still %s after 12 polls", ErrMock, st.JobStatus)
}

// formDoc is the part of a form's JSON that filling it in needs.
type formDoc struct {
	Sections []struct {
		Condition json.RawMessage `json:"condition"`
		Fields    []struct {
			Name      string          `json:"name"`
			Type      string          `json:"type"`
			Required  bool            `json:"required"`
			Condition json.RawMessage `json:"condition"`
			Options   []struct {
				Value string `json:"value"`
			} `json:"options"`
		} `json:"fields"`
	} `json:"sections"`
}

// SubmitForm fills in every required, unconditional field of the form
// formID and submits it to the public page at pageURL (a prefill request's
// requestUrl), as a person does in the browser. It returns the case file the
// submission made.
func (m *Mock) SubmitForm(ctx context.Context, token, formID, pageURL string) (int64, error) {
	var f formDoc
	if err := m.do(ctx, http.MethodGet, m.URL+"/collect/api/v1/forms/"+url.PathEscape(formID), nil, "", token, &f); err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, s := range f.Sections {
		if isSet(s.Condition) {
			continue
		}
		for _, fd := range s.Fields {
			if !fd.Required || fd.Name == "" || isSet(fd.Condition) {
				continue
			}
			if err := writeAnswer(mw, fd.Name, fd.Type, firstOption(fd.Options)); err != nil {
				return 0, err
			}
		}
	}
	if err := mw.Close(); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrMock, err)
	}
	var sub struct {
		CaseFileID int64 `json:"casefileId"`
	}
	if err := m.do(ctx, http.MethodPost, pageURL, &buf, mw.FormDataContentType(), "", &sub); err != nil {
		return 0, err
	}
	if sub.CaseFileID == 0 {
		return 0, fmt.Errorf("%w: the submission made no case file", ErrMock)
	}
	return sub.CaseFileID, nil
}

func isSet(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

func firstOption(opts []struct {
	Value string `json:"value"`
}) string {
	if len(opts) == 0 {
		return ""
	}
	return opts[0].Value
}

// writeAnswer writes a plausible answer of a field type.
func writeAnswer(mw *multipart.Writer, name, typ, option string) error {
	var err error
	switch typ {
	case "FILE":
		var w interface{ Write([]byte) (int, error) }
		if w, err = mw.CreateFormFile(name, "attachment.pdf"); err == nil {
			_, err = w.Write(FixturePDF())
		}
	default:
		err = mw.WriteField(name, sampleValue(typ, option))
	}
	if err != nil {
		return fmt.Errorf("%w: write answer %s: %w", ErrMock, name, err)
	}
	return nil
}

func sampleValue(typ, option string) string {
	switch typ {
	case "EMAIL":
		return "jane.doe@example.com"
	case "PHONE":
		return "+4512345678"
	case "NUMBER":
		return "42"
	case "DATE":
		return "2026-01-15"
	case "CHOICE":
		return option
	}
	return "Jane Doe"
}

// caseFileDoc is the part of a case file's JSON that signing it needs.
type caseFileDoc struct {
	Status  int `json:"status"`
	Signers []struct {
		ID int64 `json:"id"`
	} `json:"signers"`
}

// statusCompleted is the case file status "completed"
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md).
const statusCompleted = 5

// SignCaseFile has every signer of the case file sign, round by round, with
// POST /mock/casefiles/{id}/signers/{signerId}/sign, until it is completed.
// A case file without signers (a form that maps no field to the primary
// signer makes one) has nobody to sign and is left as it is.
func (m *Mock) SignCaseFile(ctx context.Context, token string, caseFileID int64) error {
	id := strconv.FormatInt(caseFileID, 10)
	for round := 0; ; round++ {
		var cf caseFileDoc
		if err := m.do(ctx, http.MethodGet, m.URL+"/api/v1/casefiles/"+id, nil, "", token, &cf); err != nil {
			return err
		}
		if cf.Status == statusCompleted || len(cf.Signers) == 0 {
			return nil
		}
		if round > len(cf.Signers) {
			return fmt.Errorf("%w: case file %d is in status %d after %d signing rounds", ErrMock, caseFileID, cf.Status, round)
		}
		for _, sg := range cf.Signers {
			path := m.URL + "/mock/casefiles/" + id + "/signers/" + strconv.FormatInt(sg.ID, 10) + "/sign"
			err := m.do(ctx, http.MethodPost, path, nil, "", "", nil)
			var he *HTTPError
			if err != nil && !(errors.As(err, &he) && he.Status == http.StatusConflict) {
				return err // 409: not this signer's turn, or signed already
			}
		}
	}
}
