package send

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// foldKey folds as encoding/json matches: a key binds to the field tagged
// caseFile exactly when it folds as caseFile does, so that refusing every
// case variant leaves the decoder only the exact keys.
func TestFoldKeyMatchesTheDecoder(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"caseFile", "CaseFile", "CASEFILE", "casefile", "caſeFile", "caseFile ", "case_file",
		"caseFil", "çaseFile", "\u212aey", "key", "KEY", "kéy", "KÉY", "ǅ", "ǆ", "Ǆ"} {
		for _, tag := range []string{"caseFile", "key", "kéy", "ǆ"} {
			body := fmt.Sprintf(`{%q:"v"}`, k)
			binds := decodeBinds(t, tag, body)
			if got := foldKey(k) == foldKey(tag); got != binds {
				t.Errorf("key %q, field %q: foldKey says %v, encoding/json binds: %v", k, tag, got, binds)
			}
		}
	}
}

// decodeBinds tells whether encoding/json decodes body's one member into a
// field tagged tag.
func decodeBinds(t *testing.T, tag, body string) bool {
	t.Helper()
	var got bool
	switch tag {
	case "caseFile":
		var v struct {
			X *string `json:"caseFile"`
		}
		_ = json.Unmarshal([]byte(body), &v)
		got = v.X != nil
	case "key":
		var v struct {
			X *string `json:"key"`
		}
		_ = json.Unmarshal([]byte(body), &v)
		got = v.X != nil
	case "kéy":
		var v struct {
			X *string `json:"kéy"`
		}
		_ = json.Unmarshal([]byte(body), &v)
		got = v.X != nil
	case "ǆ":
		var v struct {
			X *string `json:"ǆ"`
		}
		_ = json.Unmarshal([]byte(body), &v)
		got = v.X != nil
	default:
		t.Fatalf("no struct for %q", tag)
	}
	return got
}

func TestCheckKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		data string
		want []string // "field: start of message"
	}{
		{`{"caseFile":{"title":"T","signers":[{"name":"A"}],"documents":[{"title":"D"}]}}`, nil},
		{`{"caseFile":{"Signers":[{"Name":"A"}]}}`, []string{"caseFile.Signers: is not a key"}},
		{`{"caseFile":{"signers":[{"Name":"A"},{"name":"B","name":"C"}]}}`,
			[]string{"caseFile.signers[0].Name: is not a key", "caseFile.signers[1].name: is given twice"}},
		{`{"caseFile":{"ccRecipients":[{"EMAIL":"x"}],"documents":[{"PDF":"x","ROLES":[]}]}}`,
			[]string{"caseFile.ccRecipients[0].EMAIL: is not a key", "caseFile.documents[0].PDF: is not a key",
				"caseFile.documents[0].ROLES: is not a key"}},
		// What the mock does not read is not walked: keys there are free.
		{`{"caseFile":{"extra":{"Title":1,"Title":2},"x":[{"a":1,"a":2}]},"meta":{"CaseFile":1}}`, nil},
		// Wrong types are the decoder's to report.
		{`{"caseFile":[{"Title":1}],"x":1}`, nil},
		{`{"caseFile":{"signers":{"Name":"A"}}}`, nil},
		{`{"caseFile":{"title":"T"`, nil},
	} {
		var p problems
		checkKeys(&p, []byte(tt.data))
		var got []string
		for _, fe := range p.list {
			got = append(got, fe.Field+": "+fe.Message)
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: %q, want %q", tt.data, got, tt.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tt.want[i]) {
				t.Errorf("%s: %q, want %q", tt.data, got[i], tt.want[i])
			}
		}
	}
}

func TestProblemsAreCapped(t *testing.T) {
	t.Parallel()
	var p problems
	for i := range 250 {
		p.Add(fmt.Sprintf("f%d", i), "bad")
	}
	var q problems
	q.Add("g", "bad")
	q.addAll(p)
	if q.n != 251 || len(q.list) != maxProblems || q.list[0].Field != "g" {
		t.Fatalf("n %d, %d listed, first %q", q.n, len(q.list), q.list[0].Field)
	}
	msg := q.err().Error()
	if !strings.Contains(msg, "251 problems") || !strings.Contains(msg, "151 more") {
		t.Errorf("message %q does not count the problems", msg)
	}
	var none problems
	if none.err() != nil {
		t.Error("no problems, yet an error")
	}
}
