package webhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

// releaseTimeout bounds a Release made after the request that claimed the id
// has ended or been cancelled.
const releaseTimeout = 10 * time.Second

// Handler returns an http.Handler that verifies each delivery and passes its
// event to fn. It answers:
//
//   - 405 with "Allow: POST" to other methods;
//   - 413 when the body exceeds the limit (WithMaxBodyBytes, default 1 MiB);
//   - 400 with a generic body when verification fails (the reason is
//     logged, see WithLogger);
//   - 200 to a duplicate whose event is finished, without calling fn (any
//     other status would make the platform retry it for hours);
//   - 409 to a duplicate whose first delivery is still being processed,
//     when the dedup.Store is a dedup.Completer (both of this module's are): the
//     platform re-sends it, and the re-send is answered 200 once fn has
//     succeeded, or processed when fn failed. With a store that is not a
//     dedup.Completer such a duplicate is answered 200 too, and the event is lost
//     if that first run then fails;
//   - 500 when the dedup.Store fails, or when fn fails or panics: the claim
//     on the event id is then released, so the platform's retry is
//     processed;
//   - 204 when fn succeeds, once the claim is marked complete.
//
// It is the simple default: the platform gets its 2xx only once fn has
// succeeded. The platform waits at most 1 second for an answer; when fn can
// be slow use AsyncHandler.
func (v *Verifier) Handler(fn func(context.Context, *Event) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, dup := v.accept(w, r, true, true)
		switch {
		case ev == nil:
			return
		case dup:
			v.answerDuplicate(w, r, ev.ID)
			return
		}
		if err := v.run(r.Context(), fn, ev); err != nil {
			http.Error(w, "event processing failed", http.StatusInternalServerError)
			return
		}
		v.complete(r.Context(), ev.ID)
		w.WriteHeader(http.StatusNoContent)
	})
}

// accept reads and verifies a delivery, claiming its event id when claim.
// When it returns no event it has answered the request. A duplicate is
// answered 200, unless keepDup: then accept returns its event with dup true
// and leaves the answer to the caller.
func (v *Verifier) accept(w http.ResponseWriter, r *http.Request, keepDup, claim bool) (ev *Event, dup bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return nil, false
	}
	body, err := readBody(w, r, v.maxBody)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "cannot read request body", http.StatusBadRequest)
		}
		return nil, false
	}
	verified, err := v.verify(r.Context(), r.Header, body, claim)
	switch {
	case err == nil:
		return verified, false
	case errors.Is(err, ErrDuplicateEvent) && keepDup:
		return verified, true
	case errors.Is(err, ErrDuplicateEvent):
		w.WriteHeader(http.StatusOK)
	case isRejection(err):
		v.logRejection(r.Context(), err)
		http.Error(w, "invalid webhook request", http.StatusBadRequest)
	default:
		v.logger.LogAttrs(r.Context(), slog.LevelError, "webhooks: cannot verify delivery",
			slog.String("error", err.Error()))
		http.Error(w, "cannot verify webhook request", http.StatusInternalServerError)
	}
	return nil, false
}

// readBody reads the body through http.MaxBytesReader into a buffer that
// grows with what arrives: a declared Content-Length is never trusted for
// sizing, so a client that announces a large body and sends little holds
// little memory. A Content-Length over the limit fails before reading.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}

// run calls fn and releases the claim on the event id when fn fails or
// panics.
func (v *Verifier) run(ctx context.Context, fn func(context.Context, *Event) error, ev *Event) error {
	err := v.call(ctx, fn, ev)
	if err != nil {
		v.release(ctx, ev.ID)
	}
	return err
}

// call calls fn, turns a panic into an error, and logs a failure.
func (v *Verifier) call(ctx context.Context, fn func(context.Context, *Event) error, ev *Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("webhooks: handler panicked: %v", p)
		}
		if err != nil {
			v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: event processing failed",
				slog.String("event_id", ev.ID), slog.String("event_type", string(ev.Type)),
				slog.String("error", err.Error()))
		}
	}()
	return fn(ctx, ev)
}

// release releases the claim on id even when ctx has ended, and logs a
// failure.
func (v *Verifier) release(ctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := v.Release(ctx, id); err != nil {
		v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot release event id; its redelivery will be taken for a duplicate until the claim expires",
			slog.String("event_id", id), slog.String("error", err.Error()))
	}
}

// extend keeps the claim on id alive for another claim ttl, when the
// dedup.Store can (dedup.Extender), and logs a failure.
func (v *Verifier) extend(ctx context.Context, id string) {
	x, ok := v.dedup.(dedup.Extender)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := x.Extend(ctx, id, v.claimTTL()); err != nil {
		v.logger.LogAttrs(ctx, slog.LevelWarn, "webhooks: cannot extend the claim on an event id",
			slog.String("event_id", id), slog.String("error", err.Error()))
	}
}
