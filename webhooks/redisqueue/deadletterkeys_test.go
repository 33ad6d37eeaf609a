package redisqueue_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// A key not written exactly as the dead letter's entry id is no dead
// letter's key: Replay and Discard answer queue.ErrNotFound and leave the
// dead letter alone, though Redis would read "<ms>" or "0<ms>-<seq>" as
// that entry's id (and refuse "x" with an error of its own).
func TestDeadLetterKeyMustBeExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t, client(t, redistest.Start(t)))
	if err := q.Enqueue(ctx, queue.Delivery{ID: "evt-k", Type: "t", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := q.DeadLetter(ctx, next(t, q), "boom"); err != nil {
		t.Fatal(err)
	}
	dead, err := q.DeadLetters(ctx, 10)
	if err != nil || len(dead) != 1 {
		t.Fatalf("DeadLetters = %+v, %v", dead, err)
	}
	key := dead[0].Key
	ms, _, _ := strings.Cut(key, "-")
	for _, bad := range []string{ms, "0" + key, key + " ", "+" + key, key + "-0", "x", ""} {
		for name, op := range map[string]func(context.Context, string) error{"Replay": q.Replay, "Discard": q.Discard} {
			if err := op(ctx, bad); !errors.Is(err, queue.ErrNotFound) {
				t.Fatalf("%s(%q): %v, want queue.ErrNotFound", name, bad, err)
			}
		}
	}
	if dead, err := q.DeadLetters(ctx, 10); err != nil || len(dead) != 1 || dead[0].Key != key {
		t.Fatalf("after the refused calls DeadLetters = %+v, %v; want %s kept", dead, err, key)
	}
	if err := q.Discard(ctx, key); err != nil {
		t.Fatalf("Discard(%q): %v", key, err)
	}
}
