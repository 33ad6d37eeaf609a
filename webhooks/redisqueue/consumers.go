package redisqueue

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// DefaultConsumerIdle is how long a consumer of the group may stay idle,
// holding no entry, before a receiver removes it (WithConsumerIdle).
const DefaultConsumerIdle = 24 * time.Hour

// pruneBatch bounds how many consumers one run of the prune script removes,
// so that the script stays short however many have piled up; the next scan
// removes the rest.
const pruneBatch = 100

// pruneSrc removes from group ARGV[1] of stream KEYS[1] up to ARGV[4]
// consumers other than ARGV[3] that hold no pending entry and have been idle
// for more than ARGV[2] ms, and returns how many it removed. The check and
// the removal run in one script: no read or claim can give such a consumer
// an entry in between, so no pending entry is dropped with it (XGROUP
// DELCONSUMER forgets a consumer's pending entries). A consumer that reads
// again later is made again by its read. A missing stream or group removes
// nothing.
const pruneSrc = `local r = redis.pcall("XINFO", "CONSUMERS", KEYS[1], ARGV[1])
if type(r) == "table" and r.err then
  if string.sub(r.err, 1, 7) == "NOGROUP" or string.find(r.err, "no such key", 1, true) then return 0 end
  return r
end
local n = 0
for _, c in ipairs(r) do
  if n >= tonumber(ARGV[4]) then break end
  local f = {}
  for i = 1, #c, 2 do f[c[i]] = c[i + 1] end
  if f["name"] ~= ARGV[3] and f["pending"] == 0 and f["idle"] > tonumber(ARGV[2]) then
    redis.call("XGROUP", "DELCONSUMER", KEYS[1], ARGV[1], f["name"])
    n = n + 1
  end
end
return n`

// WithConsumerIdle sets how long a consumer of the group may stay idle
// (no read, claim or touch) before a receiver removes it, when it holds no
// entry (default DefaultConsumerIdle). Every process start adds a consumer
// name to the group; without removal they pile up. One Lua script checks
// that a consumer holds no pending entry and has been idle that long, and
// removes it, atomically: an entry is never dropped with its consumer. The
// check runs when New makes the queue and after each complete scan for
// idle entries (every quarter of the visibility timeout). A receiver whose
// consumer was removed while it waited is made again by its next read.
func WithConsumerIdle(d time.Duration) Option {
	return func(q *Queue) { q.consumerIdle = d }
}

// prune removes the group's consumers idle past the bound that hold no
// entry, logs how many at info level and counts them; it returns how many
// it removed.
func (q *Queue) prune(ctx context.Context) (int, error) {
	n, err := q.run(ctx, q.scripts.prune, []string{q.stream},
		q.group, q.consumerIdle.Milliseconds(), q.me, pruneBatch).Int()
	if err != nil {
		return 0, fmt.Errorf("redisqueue: remove idle consumers: %w", err)
	}
	if n > 0 {
		q.stats.consumersRemoved.Add(uint64(n))
		q.logger.LogAttrs(ctx, slog.LevelInfo, "redisqueue: removed idle consumers that held no entry",
			slog.String("stream", q.stream), slog.String("group", q.group), slog.Int("removed", n),
			slog.Duration("idle", q.consumerIdle))
	}
	return n, nil
}

// pruneQuietly runs prune and logs a failure at warning level: removing
// idle consumers is housekeeping, and the next scan tries again.
func (q *Queue) pruneQuietly(ctx context.Context) {
	if _, err := q.prune(ctx); err != nil {
		q.logger.LogAttrs(ctx, slog.LevelWarn, "redisqueue: cannot remove idle consumers; trying again later",
			slog.String("stream", q.stream), slog.String("error", err.Error()))
	}
}
