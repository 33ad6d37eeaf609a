package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver"
)

// -max-documents bounds the documents of a Send create request: the
// request past it is the Send 400 naming the bound; -h lists the flag and
// a bound below 1 is refused.
func TestMaxDocumentsFlag(t *testing.T) {
	t.Parallel()
	base, _, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual", "-max-documents", "2")
	defaults := mockserver.New()
	creds := defaults.DefaultCredentials().Credentials()
	defaults.Close()
	tok, err := auth.NewTokenSource(base+"/auth", creds).Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pdf := base64.StdEncoding.EncodeToString(mockserver.SamplePDF("Doc"))
	body := func(n int) []byte {
		var docs []any
		for i := range n {
			docs = append(docs, map[string]any{"title": fmt.Sprintf("D%d", i), "pdf": pdf})
		}
		b, err := json.Marshal(map[string]any{"caseFile": map[string]any{"title": "T",
			"signers": []any{map[string]any{"name": "Ada"}}, "documents": docs}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	url := base + "/send/api/v1/casefiles/json/20251022/create-production-base64"
	st, b := rawCall(t, "POST", url, "X-Auth-Token", tok.AccessToken, body(3))
	var e struct {
		Error, Message string
		StatusCode     int
	}
	_ = json.Unmarshal(b, &e)
	if st != http.StatusBadRequest || e.Error != "Bad Request" || !strings.Contains(e.Message, "at most 2 documents") {
		t.Errorf("3 documents: %d %s, want the Send 400 naming the bound", st, b)
	}
	if st, b := rawCall(t, "POST", url, "X-Auth-Token", tok.AccessToken, body(2)); st != http.StatusOK {
		t.Errorf("2 documents: %d %s", st, b)
	}

	var usage bytes.Buffer
	_ = run(ctx, []string{"-h"}, io.Discard, &usage)
	if !strings.Contains(usage.String(), "-max-documents") || !strings.Contains(usage.String(), "(default 1000)") {
		t.Errorf("-h does not list -max-documents with its default:\n%s", usage.String())
	}
	if _, err := parseFlags([]string{"-max-documents", "0"}, io.Discard); err == nil {
		t.Error("-max-documents 0: no error")
	}
}
