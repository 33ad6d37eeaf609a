// Package queue holds verified webhook deliveries between a receiver's 2xx
// and the successful processing of their events, for
// webhooks.(*Verifier).AsyncHandler.
//
// A Queue is the contract: a delivery is enqueued before the platform gets
// its 2xx, handed to one worker at a time, acknowledged once its event is
// processed, and moved to a dead-letter list when processing keeps failing.
// Two implementations:
//
//   - NewMemory, in this package: in the receiver's memory. It is not
//     durable: a crash of the process loses what it holds, although it had
//     been acknowledged to the platform. It loses nothing on an error or a
//     panic, nor on a shutdown: AsyncHandler's Shutdown hands back what it
//     could not finish, but for the events whose processing is still
//     running at the end of its grace. Its storage follows its backlog. Use
//     it where that trade is acceptable, or in tests.
//   - webhooks/redisqueue: a Redis stream with a consumer group, durable as
//     Redis is; several receivers share one stream, and the events of a
//     receiver that crashed are taken over by another. Its hand-outs are
//     leases (Leaser) and its Enqueue is keyed by the event id
//     (Idempotent).
//
// Both keep a dead-letter list that the DeadLetterList methods read, replay
// and discard.
//
// Package webhooks/queue/queuetest is the conformance suite of Queue; both
// queues pass it, and a queue of your own proves itself with it.
package queue

import (
	"context"
	"errors"
	"time"
)

// Errors of the queues of this module.
var (
	// ErrClosed: the queue was closed; Enqueue refuses, and Next returns it
	// once nothing is left to hand out.
	ErrClosed = errors.New("queue: closed")
	// ErrFull: the queue holds as many deliveries as it may.
	ErrFull = errors.New("queue: full")
	// ErrNotFound: no dead letter has that key.
	ErrNotFound = errors.New("queue: no such dead letter")
	// ErrClaimLost: the entry is no longer the caller's: another caller
	// took it over after the visibility timeout, or it is gone (finished by
	// another caller, or lost with the queue's data). Touch and DeadLetter
	// return it; the caller then stops handling the entry: no further
	// attempt, no dead letter, no release of a claim it no longer owns.
	ErrClaimLost = errors.New("queue: claim lost: the entry was taken over or is gone")
)

// Delivery is a verified delivery: what a worker needs to rebuild its event.
type Delivery struct {
	// ID is the event id (X-Event-Id).
	ID string
	// Type is the event type (X-Event-Type).
	Type string
	// Body is the raw event body.
	Body []byte
}

// Message is a Delivery handed out by Next.
type Message struct {
	Delivery
	// Key identifies the entry in its queue.
	Key string
	// Deliveries counts the times the queue has handed the entry out, this
	// one included: more than 1 means that a worker took it over from
	// another, which stopped before finishing it.
	Deliveries int
}

// DeadLetter is a delivery whose processing failed too often.
type DeadLetter struct {
	Delivery
	// Key identifies the dead letter, for Replay and Discard.
	Key string
	// Reason is the last processing error.
	Reason string
	// Deliveries is the number of times the entry had been handed out.
	Deliveries int
	// Time is when the delivery was moved to the dead-letter list.
	Time time.Time
}

// Queue stores verified deliveries until their processing succeeds or is
// given up. Implementations are safe for concurrent use.
type Queue interface {
	// Enqueue stores d; it returns nil only once d is stored as durably as
	// the queue can store it.
	Enqueue(ctx context.Context, d Delivery) error
	// Next blocks until an entry can be handed out, or ctx ends (then its
	// error matches ctx.Err()). The entry stays with the caller until Ack
	// or DeadLetter; a durable queue hands it
	// to another caller when it was not touched for a while (the caller
	// stopped).
	Next(ctx context.Context) (*Message, error)
	// Touch tells the queue that m is still being processed, so that it is
	// not handed to another caller. It first checks that m is still this
	// hand-out's, and returns ErrClaimLost when it is not; any other error
	// leaves the question open (the queue could not be asked).
	Touch(ctx context.Context, m *Message) error
	// Ack removes m: its event was processed. A durable queue also records
	// the event as done, so that an entry of the same event handed out
	// later is acknowledged without being processed again. Ack may be
	// called again after an error, or after the claim was lost: the event
	// was processed all the same.
	Ack(ctx context.Context, m *Message) error
	// DeadLetter moves m to the dead-letter list, with the reason, if m is
	// still this hand-out's; ErrClaimLost otherwise.
	DeadLetter(ctx context.Context, m *Message, reason string) error
	// Close stops the queue: Enqueue returns ErrClosed, and Next returns
	// ErrClosed once nothing is left for it (a queue in memory first hands
	// out what it holds; a durable queue at once, leaving its entries to
	// other callers). Entries already handed out may still be acknowledged.
	Close() error
}

// DeadLetterList is the dead-letter list of a queue. Both queues of this
// module implement it.
type DeadLetterList interface {
	// DeadLetters returns up to limit dead letters, oldest first.
	DeadLetters(ctx context.Context, limit int) ([]DeadLetter, error)
	// Replay moves the dead letter back into the queue, to be processed
	// again.
	Replay(ctx context.Context, key string) error
	// Discard deletes the dead letter.
	Discard(ctx context.Context, key string) error
}

// Leaser is implemented by queues whose hand-outs are leases: an entry left
// untouched for a while (the visibility timeout) is handed to another
// caller, because its holder is taken to have stopped. A caller that holds
// an entry touches it every TouchInterval for the whole of its handling,
// processing and waits between attempts alike. AsyncHandler does, and
// takes a lease none of whose touches succeeded for three intervals to have
// run out.
type Leaser interface {
	// TouchInterval is how often a held entry must be touched: at most a
	// third of the visibility timeout.
	TouchInterval() time.Duration
}

// Idempotent is implemented by queues whose Enqueue is keyed by the event
// id: an id enqueued within the last IdempotencyWindow is not added again,
// and Enqueue returns nil. So a re-sent delivery (by the client library
// after a lost reply, or by the platform after a failed answer) adds no
// second entry, and AsyncHandler answers a duplicate delivery 2xx only
// after enqueueing it too: the 2xx then says the event is stored, even
// when the first delivery's own enqueue is still under way, or fails.
type Idempotent interface {
	// IdempotencyWindow is how long an enqueued id is remembered.
	IdempotencyWindow() time.Duration
}

// Volatile is implemented by queues that keep their entries in the
// receiver's memory (NewMemory). After Close, Unacked takes out every entry
// that was neither acknowledged nor dead-lettered, handed out or not: it
// would be lost with the process, so the receiver hands it to its caller
// (AsyncHandler's Shutdown returns those whose processing is not running).
type Volatile interface {
	Unacked() []Delivery
}
