package testkit

import (
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/minipdf"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// EmitEveryEvent drives the simulation of s, a fresh mock on a manual clock,
// through every event type it emits, as the user admin, delivered to a
// receiver subscribed to every type; it answers the receiver once every
// delivery is in.
func EmitEveryEvent(t testing.TB, s Server, admin Credentials) *Receiver {
	t.Helper()
	tok, pdf := Login(t, s, admin), FilePart("doc.pdf", minipdf.Build("Contract text"))
	rc := NewReceiver(t, http.StatusNoContent)
	Subscribe(t, s, tok, rc.URL(), webhooks.EventTypes()...)
	act := func(cf int64, signer, action string) {
		t.Helper()
		if err := s.SignerAction(cf, SignerID(t, s, cf, signer), action); err != nil {
			t.Fatalf("%s of %s: %v", action, signer, err)
		}
	}
	// Every email event, then signing: completed and finalized.
	a, _ := RunCase(t, s, tok, CaseDef("Ann:ann@example.com"), pdf)
	for _, action := range []string{signing.ActionRequestOpened, signing.ActionOpen, signing.ActionBounce, signing.ActionUndeliverable, signing.ActionSign} {
		act(a, "Ann", action)
	}
	// A signer deleted before their round, then a rejection.
	b, _ := RunCase(t, s, tok, CaseDef("Ann:ann@example.com", "Bob:bob@example.com:1"), pdf)
	act(b, "Bob", signing.ActionDelete)
	act(b, "Ann", signing.ActionReject)
	// A reminder, then expiry.
	c := CaseDef("Cy:cy@example.com")
	c["signers"].([]any)[0].(map[string]any)["reminderInterval"] = 1
	c["expireAt"] = s.Now().Add(36 * time.Hour).UTC().Format(time.RFC3339)
	RunCase(t, s, tok, c, pdf)
	s.Advance(48 * time.Hour)
	tok = Login(t, s, admin) // the first one has expired
	// An original that is not a readable PDF: the signed PDFs cannot be made.
	d, _ := RunCase(t, s, tok, CaseDef("Dee:dee@example.com"), FilePart("doc.pdf", []byte("%PDF-1.4 and nothing else")))
	act(d, "Dee", signing.ActionSign)
	SendTestEvent(t, s, tok)
	s.Advance(0)
	return rc
}
