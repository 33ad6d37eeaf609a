package deduptest_test

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/dedup/deduptest"
)

// A store proves that it keeps the contract from a test of its own package;
// here the memory store stands for yours. newStore hands each subtest an
// empty store of its own. A store shared by several receivers (on a database,
// say) also sets Peer to a second store on the same claims, and a store with
// a fake clock sets Advance so that the expiry tests do not sleep.
//
// An Example cannot get a *testing.T, so this one is compiled but not run
// (it has no Output line): put the function's body in a TestConformance of
// your own.
func Example() {
	_ = func(t *testing.T) { // func TestConformance(t *testing.T)
		deduptest.Run(t, func(t *testing.T) deduptest.Subject {
			return deduptest.Subject{
				Store: dedup.NewMemory(1000),
				TTL:   200 * time.Millisecond, // margin over the store's clock and round trip
			}
		})
	}
}
