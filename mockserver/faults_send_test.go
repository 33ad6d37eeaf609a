package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// These tests drive the Send API (its test helpers build the
// multipart request) through fault injection and the delivery engine.

func TestFaultOnCaseFileCreate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fault      Fault
		wantStatus int
		wantCases  int
	}{
		{"500 after the effect", Fault{Method: "POST", Path: "/send" + sendCreatePath, Status: 500, Phase: FaultAfter}, 500, 1},
		{"503 before the effect", Fault{Method: "POST", Path: "/send" + sendCreatePath, Status: 503, Phase: FaultBefore}, 503, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, tok, pdf := sndServer(t)
			if err := s.InjectFault(tc.fault); err != nil {
				t.Fatal(err)
			}
			st, b, _ := sndCreate(t, s, tok, sndData(t, sndCase("Ann:ann@example.test")), pdf)
			if st != tc.wantStatus {
				t.Errorf("create answered %d %s, want %d", st, b, tc.wantStatus)
			}
			s.Advance(s.cfg.JobDelay + time.Second) // the job, if any, runs
			if n := sndCaseCount(s); n != tc.wantCases {
				t.Errorf("%d case files exist, want %d", n, tc.wantCases)
			}
		})
	}
}

func TestEventsOfACaseFileSentByAColleague(t *testing.T) {
	t.Parallel()
	s, adminTok, pdf := sndServer(t)
	rc := newReceiver(t, http.StatusNoContent)
	sub := whSubscribe(t, s, adminTok, rc.URL(), "sign.signer.requestActivated")
	_, colleagueTok := whUser(t, s, UserSpec{Name: "Colleague", Email: "colleague@example.test"})
	id, _ := sndRun(t, s, colleagueTok, sndCase("Ann:ann@example.test"), pdf)
	s.Advance(0)

	reqs := rc.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the admin's subscription got %d deliveries, want 1", len(reqs))
	}
	if _, err := verifySignature(sub.Secret, reqs[0].Header, reqs[0].Body); err != nil {
		t.Errorf("signature: %v", err)
	}
	var body struct {
		Topic, EventType string
		Payload          struct{ CaseFile struct{ ID int64 } }
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Topic != "signer" || body.EventType != "requestActivated" || body.Payload.CaseFile.ID != id {
		t.Errorf("delivered %s, want requestActivated of case file %d", reqs[0].Body, id)
	}
}
