package openapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver/internal/traffic"
)

// sendJob is the Send create routes' 200 answer.
const sendJob = `{"uuid":"u1","payloadHash":"h1","status":"handled","message":"Job created",` +
	`"jobs":[{"uuid":"u1","payloadHash":"h1","createdAt":"2026-01-02T03:04:05Z"}]}`

// sendTimes is a case file with its four times
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1),
// each as the given JSON value.
func sendTimes(caseFileTime, signerTime string, pdf bool) string {
	doc := `{"name":"doc.pdf","title":"Contract"}`
	if pdf {
		doc = `{"name":"doc.pdf","title":"Contract","pdf":"JVBERi0xLjQK"}`
	}
	return `{"caseFile":{"title":"Contract","sendAt":` + caseFileTime + `,"expireAt":` + caseFileTime +
		`,"signers":[{"name":"Ann","activeAt":` + signerTime + `,"expireAt":` + signerTime + `}],"documents":[` + doc + `]}}`
}

// TestCheckReadsSendTimes shows the traffic check on the Send times: a
// create the mock accepted with integer unix seconds, or RFC 3339
// strings, passes on both JSON routes and in the multipart route's data
// part; a data part the description refuses, accepted by the mock, is a
// problem, and so is a multipart create whose data part was not checked.
func TestCheckReadsSendTimes(t *testing.T) {
	doc, _ := load(t)
	jsonCreate := func(path, body string) traffic.Exchange {
		return traffic.Exchange{Method: "POST", Path: path, Header: map[string]string{"Content-Type": "application/json"},
			Body: body, BodyKept: true, Status: 200, ContentType: "application/json", Answer: sendJob, AnswerKept: true}
	}
	var good []traffic.Exchange
	for _, times := range [][2]string{{"1767225600", "1767312000"}, {`"2026-01-01T00:00:00Z"`, `"2026-01-02T00:00:00+01:00"`}, {"null", "null"}} {
		for _, route := range []string{"create-production-base64", "create-sandbox-base64"} {
			good = append(good, jsonCreate("/send/api/v1/casefiles/json/20251022/"+route, sendTimes(times[0], times[1], true)))
		}
		good = append(good, multipartCreate(sendTimes(times[0], times[1], false)))
	}
	for _, ex := range good {
		if problems, _ := check(t, doc, []traffic.Exchange{ex}); len(problems) != 0 {
			t.Errorf("%s %s: an accepted create is refused: %v", ex.Method, ex.Path, problems)
		}
	}
	badData := multipartCreate(strings.Replace(sendTimes("1", "1", false), `"title":"Contract"`, `"title":5`, 1))
	unchecked := multipartCreate("")
	unchecked.Data, unchecked.DataKept = nil, false
	for name, ex := range map[string]traffic.Exchange{"a data part the description refuses": badData,
		"a data part not checked": unchecked} {
		if problems, _ := check(t, doc, []traffic.Exchange{ex}); len(problems) != 1 {
			t.Errorf("%s: %d problems, want 1: %v", name, len(problems), problems)
		}
	}
}

// multipartCreate is a multipart create the mock accepted, its data part
// recorded.
func multipartCreate(data string) traffic.Exchange {
	return traffic.Exchange{Method: "POST", Path: "/send/api/v1/casefiles/20251022/create",
		Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
		Data:   []string{data}, DataKept: true, Status: 200, ContentType: "application/json", Answer: sendJob, AnswerKept: true}
}

// dataPartSchema answers the schema of an operation's multipart data
// part, a JSON text (the Send create route's definition), or nil when
// its body has none.
func dataPartSchema(o *openapi3.Operation) *openapi3.Schema {
	if o.RequestBody == nil || o.RequestBody.Value == nil {
		return nil
	}
	mt := o.RequestBody.Value.Content.Get("multipart/form-data")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	if enc := mt.Encoding["data"]; enc == nil || enc.ContentType != "application/json" {
		return nil
	}
	if p := mt.Schema.Value.Properties["data"]; p != nil {
		return p.Value
	}
	return nil
}

// checkDataPart checks what openapi3filter cannot see of a multipart
// body, which is not recorded: its data part, recorded on its own. A
// request the mock accepted must have had one data part, recorded, that
// its schema admits.
func checkDataPart(op string, o *openapi3.Operation, ex traffic.Exchange) *problem {
	s := dataPartSchema(o)
	switch {
	case s == nil || ex.Status >= 400:
		return nil
	case !ex.DataKept:
		return &problem{fmt.Sprintf("%s → %d: a multipart body whose data part was not recorded, so not checked", op, ex.Status), ""}
	case len(ex.Data) != 1:
		return &problem{fmt.Sprintf("%s → %d: accepted with %d data parts", op, ex.Status, len(ex.Data)), ""}
	}
	if err := validateJSON(s, ex.Data[0]); err != nil {
		return &problem{fmt.Sprintf("%s: the description refuses a data part the mock answered %d: %s", op, ex.Status, firstLine(err)),
			clip(ex.Data[0])}
	}
	return nil
}
