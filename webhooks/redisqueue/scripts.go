package redisqueue

import "github.com/redis/go-redis/v9"

// The queue's Lua scripts. Each runs atomically in Redis, and each can run
// twice with the same result (go-redis sends a command again when its reply
// was lost), so that no fault of the network adds an entry, a run of fn or a
// dead letter. Every key a script touches is passed in KEYS and carries the
// stream's hash tag (keys.go), so the scripts run on Redis Cluster too.
//
// An event's record is one string key per event id: "queued" from the
// enqueue, "done" from the acknowledgement, "dead:<entry>:<count>:<consumer>"
// from the dead letter (naming the hand-out that wrote it), expiring after
// the idempotency window. Any record makes a later enqueue of the id add
// nothing; only "done" makes a hand-out skip fn. Replay and Discard record
// their own work under the dead letter's key for a short while (moveMemory),
// so that a re-sent run of the same call answers as the first did.

// enqueueSrc adds the event ARGV[2..4] (id, type, body) to the stream
// KEYS[1] unless its record KEYS[2] exists, and then sets the record for
// ARGV[1] milliseconds. It returns 1 when it added the entry, 0 when the id
// was known. The XADD comes before the record: if it fails, nothing is
// written, so a retry adds the entry; the record cannot say "queued" for an
// entry that was never added.
const enqueueSrc = `if redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
redis.call("XADD", KEYS[1], "*", "id", ARGV[2], "type", ARGV[3], "body", ARGV[4])
redis.call("SET", KEYS[2], "queued", "PX", ARGV[1])
return 1`

// pendingSrc is the head of the scripts that check a hand-out: it reads the
// pending entry ARGV[3] of group ARGV[1] in stream KEYS[1] into p, nil when
// the entry, the group or the stream is gone. pending() splices it in.
const pendingSrc = `local r = redis.pcall("XPENDING", KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
local p = nil
if type(r) == "table" and r.err then
  if string.sub(r.err, 1, 7) ~= "NOGROUP" then return r end
elseif #r == 1 then
  p = r[1]
end
`

// handoutSrc checks an entry just read or taken over by consumer ARGV[2]:
// it returns -1 when the entry is not pending to ARGV[2] (gone, or taken by
// another consumer meanwhile), or has been idle for the visibility timeout
// ARGV[4] (ms) already (this check came so late that the entry is up for
// takeover); 0 when the event's record KEYS[2] says done, after
// acknowledging and deleting the entry, which must not run again;
// otherwise the entry's delivery count, which names this hand-out.
const handoutSrc = pendingSrc + `if p == nil or p[2] ~= ARGV[2] or p[3] >= tonumber(ARGV[4]) then return -1 end
if redis.call("GET", KEYS[2]) == "done" then
  redis.call("XACK", KEYS[1], ARGV[1], ARGV[3])
  redis.call("XDEL", KEYS[1], ARGV[3])
  return 0
end
return p[4]`

// touchSrc extends the hand-out of entry ARGV[3] to consumer ARGV[2] with
// delivery count ARGV[4]: when the entry is still pending to that consumer
// with that count, it resets the entry's idle time (XCLAIM JUSTID, which
// does not count a delivery) and returns 1. When the entry is gone and the
// event's record KEYS[2] says this very hand-out dead-lettered it (the
// heartbeat beating once more before the worker lets go), it returns 2:
// nothing to keep, but no claim lost. Otherwise 0: the claim is lost.
const touchSrc = pendingSrc + `if p == nil or p[2] ~= ARGV[2] or p[4] ~= tonumber(ARGV[4]) then
  if p == nil and redis.call("GET", KEYS[2]) == "dead:" .. ARGV[3] .. ":" .. ARGV[4] .. ":" .. ARGV[2] then return 2 end
  return 0
end
redis.call("XCLAIM", KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], "JUSTID")
return 1`

// ackSrc records the event done in KEYS[2] for ARGV[2] milliseconds, then
// acknowledges and deletes entry ARGV[3] of group ARGV[1] in stream KEYS[1],
// whoever holds it: the event was processed. The record comes first: if it
// fails, nothing is written and the ack is tried again. A missing group
// (Redis lost its data) is no error.
const ackSrc = `redis.call("SET", KEYS[2], "done", "PX", ARGV[2])
redis.pcall("XACK", KEYS[1], ARGV[1], ARGV[3])
redis.call("XDEL", KEYS[1], ARGV[3])
return 1`

// deadLetterSrc moves entry ARGV[3] to the dead-letter stream KEYS[2] with
// the fields ARGV[6..] when it is still pending to consumer ARGV[2] with
// delivery count ARGV[4], records in the event's record KEYS[3] (for ARGV[5]
// ms) that this hand-out dead-lettered the entry ("dead:<entry>:<count>:
// <consumer>"), and returns 1. Otherwise it returns 1 when the record names
// this very hand-out (a re-sent run whose first reply was lost), else 0,
// changing nothing: the entry is no longer this hand-out's.
const deadLetterSrc = pendingSrc + `local mark = "dead:" .. ARGV[3] .. ":" .. ARGV[4] .. ":" .. ARGV[2]
if p == nil or p[2] ~= ARGV[2] or p[4] ~= tonumber(ARGV[4]) then
  if redis.call("GET", KEYS[3]) == mark then return 1 end
  return 0
end
local f = {}
for i = 6, #ARGV do f[#f + 1] = ARGV[i] end
redis.call("XADD", KEYS[2], "*", unpack(f))
redis.call("SET", KEYS[3], mark, "PX", ARGV[5])
redis.call("XACK", KEYS[1], ARGV[1], ARGV[3])
redis.call("XDEL", KEYS[1], ARGV[3])
return 1`

// replaySrc moves the dead letter ARGV[1] from KEYS[2] back into KEYS[1]
// as a new entry, atomically, and records the move in KEYS[3] as
// "replayed:<ARGV[2]>" for ARGV[3] ms, ARGV[2] being the token of this call;
// it returns 1. When there is no such dead letter it returns 1 if KEYS[3]
// records this very call's move (a re-sent run whose first reply was lost),
// else 0.
const replaySrc = `local e = redis.call("XRANGE", KEYS[2], ARGV[1], ARGV[1])
if #e == 0 then
  if redis.call("GET", KEYS[3]) == "replayed:" .. ARGV[2] then return 1 end
  return 0
end
local f, v = e[1][2], {}
for i = 1, #f, 2 do v[f[i]] = f[i + 1] end
redis.call("XADD", KEYS[1], "*", "id", v["id"] or "", "type", v["type"] or "", "body", v["body"] or "")
redis.call("XDEL", KEYS[2], ARGV[1])
redis.call("SET", KEYS[3], "replayed:" .. ARGV[2], "PX", ARGV[3])
return 1`

// discardSrc deletes the dead letter ARGV[1] from KEYS[1] and records the
// deletion in KEYS[2] as "discarded:<ARGV[2]>" for ARGV[3] ms; it returns 1.
// When there is no such dead letter it returns 1 if KEYS[2] records this
// very call's deletion (a re-sent run), else 0.
const discardSrc = `if redis.call("XDEL", KEYS[1], ARGV[1]) == 0 then
  if redis.call("GET", KEYS[2]) == "discarded:" .. ARGV[2] then return 1 end
  return 0
end
redis.call("SET", KEYS[2], "discarded:" .. ARGV[2], "PX", ARGV[3])
return 1`

// scripts are the queue's scripts, loaded lazily by go-redis (EVALSHA,
// then EVAL when Redis does not know the script, as after a restart).
type scripts struct {
	enqueue, handout, touch, ack, deadLetter, replay, discard, prune *redis.Script
}

func newScripts() scripts {
	return scripts{
		enqueue:    redis.NewScript(enqueueSrc),
		handout:    redis.NewScript(handoutSrc),
		touch:      redis.NewScript(touchSrc),
		ack:        redis.NewScript(ackSrc),
		deadLetter: redis.NewScript(deadLetterSrc),
		replay:     redis.NewScript(replaySrc),
		discard:    redis.NewScript(discardSrc),
		prune:      redis.NewScript(pruneSrc),
	}
}
