package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWriteError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		err    error
		status int
		code   string
		auth   bool
	}{
		{"not found", NotFound("no form %q", "x"), 404, "not_found", false},
		{"wrapped", fmt.Errorf("decode: %w", Conflict("busy")), 409, "conflict", false},
		{"unauthorized", Unauthorized("expired"), 401, "unauthorized", true},
		{"other error: 500 without its text", errors.New("secret detail"), 500, "internal_error", false},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		WriteError(w, tt.err)
		var body struct {
			StatusCode int          `json:"statusCode"`
			Error      string       `json:"error"`
			Message    string       `json:"message"`
			Details    []FieldError `json:"details"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if w.Code != tt.status || body.StatusCode != tt.status || body.Error != tt.code || body.Details == nil {
			t.Errorf("%s: %d %s", tt.name, w.Code, w.Body.Bytes())
		}
		if (w.Header().Get("WWW-Authenticate") != "") != tt.auth {
			t.Errorf("%s: WWW-Authenticate %q", tt.name, w.Header().Get("WWW-Authenticate"))
		}
		if strings.Contains(w.Body.String(), "secret detail") {
			t.Errorf("%s: the error text leaked", tt.name)
		}
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	var p Problems
	if p.Err() != nil {
		t.Fatal("no problems, yet an error")
	}
	p.Add("limit", "must be at most %d", 10)
	var e *Error
	if !errors.As(p.Err(), &e) || e.Status != 422 || len(e.Details) != 1 || e.Details[0].Message != "must be at most 10" {
		t.Fatalf("Err = %v", p.Err())
	}
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ct, body string
		status         int // 0: ok
	}{
		{"ok", "application/json", `{"a":1}`, 0},
		{"vendor json", "application/vnd.x+json", `{"a":1}`, 0},
		{"not json", "text/plain", `{"a":1}`, 415},
		{"malformed", "application/json", `{"a":`, 400},
		{"two values", "application/json", `{"a":1} {}`, 400},
		{"too large", "application/json", `{"a":"` + strings.Repeat("x", 100) + `"}`, 413},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.body))
		r.Header.Set("Content-Type", tt.ct)
		var v map[string]any
		err := DecodeJSON(httptest.NewRecorder(), r, 64, &v)
		var e *Error
		switch {
		case tt.status == 0 && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.status != 0 && (!errors.As(err, &e) || e.Status != tt.status):
			t.Errorf("%s: %v, want %d", tt.name, err, tt.status)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		v      any
		want   int
		body   string
	}{
		{"value", http.StatusCreated, map[string]any{"a": "<b>", "n": 1}, http.StatusCreated, `{"a":"<b>","n":1}` + "\n"},
		{"null", http.StatusOK, nil, http.StatusOK, "null\n"},
		{"cannot encode", http.StatusOK, map[string]any{"ok": 1, "f": func() {}}, http.StatusInternalServerError,
			`{"statusCode":500,"error":"internal_error","message":"encoding failed","details":[]}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			WriteJSON(rec, tt.status, tt.v)
			if rec.Code != tt.want || rec.Body.String() != tt.body {
				t.Errorf("answered %d %q, want %d %q", rec.Code, rec.Body.String(), tt.want, tt.body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestDecodeOptionalBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		chunked    bool
		want       string // the field after decoding
		status     int    // 0: ok
	}{
		{"no body", "", false, "kept", 0},
		{"empty chunked body", "", true, "kept", 0},
		{"white space only", " \n", true, "kept", 0},
		{"a value", `{"reason":"typo"}`, false, "typo", 0},
		{"a value, chunked", `{"reason":"typo"}`, true, "typo", 0},
		{"malformed", `{"reason":`, true, "", 400},
		{"two values", `{} {}`, false, "", 400},
		{"too large", `{"reason":"` + strings.Repeat("x", 100) + `"}`, true, "", 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.body))
			if tt.chunked {
				r.ContentLength = -1 // a body of unknown length, as a chunked request has
			}
			v := struct {
				Reason string `json:"reason"`
			}{Reason: "kept"}
			err := DecodeOptionalBody(httptest.NewRecorder(), r, 64, &v)
			var e *Error
			switch {
			case tt.status == 0 && (err != nil || v.Reason != tt.want):
				t.Errorf("err %v, reason %q; want %q", err, v.Reason, tt.want)
			case tt.status != 0 && (!errors.As(err, &e) || e.Status != tt.status):
				t.Errorf("%v, want %d", err, tt.status)
			}
		})
	}
}
