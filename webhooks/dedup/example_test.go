package dedup_test

import (
	"context"
	"fmt"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

// A claim is taken once; a release after a failed processing lets the
// redelivery in. A Verifier makes these calls itself: give it the store with
// webhooks.WithDedup.
func ExampleNewMemory() {
	ctx := context.Background()
	store := dedup.NewMemory(10_000)

	first, _ := store.Claim(ctx, "evt-1", 10*time.Minute)
	replay, _ := store.Claim(ctx, "evt-1", 10*time.Minute)
	fmt.Println("first delivery claimed:", first, "- replay claimed:", replay)

	_ = store.Release(ctx, "evt-1") // processing failed
	retry, _ := store.Claim(ctx, "evt-1", 10*time.Minute)
	fmt.Println("redelivery after a release claimed:", retry)

	_, err := store.Claim(ctx, "", time.Minute)
	fmt.Println(err)
	// Output:
	// first delivery claimed: true - replay claimed: false
	// redelivery after a release claimed: true
	// dedup: claim needs an id and a positive ttl: id "", ttl 1m0s
}
