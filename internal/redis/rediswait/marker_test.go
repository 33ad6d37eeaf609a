package rediswait

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMarkerSharesTheSlot: on a cluster the marker key hashes to the
// write's slot (a pipeline to one node may hold no key of another), and
// is found once per slot.
func TestMarkerSharesTheSlot(t *testing.T) {
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}})
	defer c.Close()
	w, err := New(c, 1, 100*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"{signkit:webhooks}:events", "signkit:webhooks:event:E~1-2:3", "a}b{", "x"} {
		m := w.marker(key)
		if Slot(m) != Slot(key) {
			t.Errorf("marker %q of %q: slot %d, want %d", m, key, Slot(m), Slot(key))
		}
		if again := w.marker(key); again != m {
			t.Errorf("marker of %q changed: %q, then %q", key, m, again)
		}
	}
}
