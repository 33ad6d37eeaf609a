package deduptest

import (
	"context"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

func completed(t *testing.T, c dedup.Completer, id string) bool {
	t.Helper()
	done, err := c.Completed(context.Background(), id)
	if err != nil {
		t.Fatalf("Completed(%q): %v", id, err)
	}
	return done
}

func complete(t *testing.T, c dedup.Completer, id string) {
	t.Helper()
	if err := c.Complete(context.Background(), id); err != nil {
		t.Fatalf("Complete(%q): %v", id, err)
	}
}

// testComplete, for a dedup.Completer: a claim is in flight until completed; a completed claim stays claimed, is seen
// complete by a peer, still expires and is still released; completing an
// id that is not claimed does nothing.
func testComplete(t *testing.T, sub Subject) {
	c, ok := sub.Store.(dedup.Completer)
	if !ok {
		t.Skipf("%T is not a dedup.Completer", sub.Store)
	}
	ttl, wait := sub.ttl(), sub.wait
	complete(t, c, "evt-never") // not an error
	if completed(t, c, "evt-never") || !claim(t, sub.Store, "evt-never", time.Minute) {
		t.Fatal("Complete of an unclaimed id claimed it")
	}
	if !claim(t, sub.Store, "evt-c", time.Minute) {
		t.Fatal("first claim refused")
	}
	if completed(t, c, "evt-c") {
		t.Fatal("a claim in flight reported complete")
	}
	complete(t, c, "evt-c")
	complete(t, c, "evt-c") // twice is fine
	if !completed(t, c, "evt-c") {
		t.Fatal("a completed claim reported in flight")
	}
	if claim(t, sub.Store, "evt-c", time.Minute) {
		t.Fatal("a completed claim was claimed again")
	}
	if pc, ok := sub.Peer.(dedup.Completer); ok && !completed(t, pc, "evt-c") {
		t.Fatal("the peer sees the completed claim in flight")
	}
	release(t, sub.Store, "evt-c")
	if completed(t, c, "evt-c") || !claim(t, sub.Store, "evt-c", time.Minute) {
		t.Fatal("a released completed claim was kept")
	}
	if completed(t, c, "evt-c") {
		t.Fatal("a new claim inherited the completion of a released one")
	}
	if !claim(t, sub.Store, "evt-c-ttl", ttl) {
		t.Fatal("claim refused")
	}
	complete(t, c, "evt-c-ttl")
	wait(ttl + ttl/2 + 10*time.Millisecond)
	if completed(t, c, "evt-c-ttl") || !claim(t, sub.Store, "evt-c-ttl", ttl) {
		t.Fatal("a completed claim outlived its ttl")
	}
}
