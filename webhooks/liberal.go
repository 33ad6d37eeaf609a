package webhooks

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
)

// unreadable is the set of an event body's members that could not be read
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#liberal-payloads):
// each is left zero in the Event, and the Verifier logs their names. One bit
// per member, so that the decoder records them without allocating.
type unreadable uint16

// The members an Event is read from, in the order their names are logged.
const (
	badTopic unreadable = 1 << iota
	badEventType
	badEventTime
	badDate
	badTimezone
	badTimezoneType
	badPayload
	badID
	badStatus
	badCaseFile
	badCaseFileID
	badCaseFileStatus
	badMessage
)

// unreadableNames names the members of unreadable, bit by bit.
var unreadableNames = [...]string{
	"topic", "eventType", "eventTime", "eventTime.date", "eventTime.timezone", "eventTime.timezone_type",
	"payload", "payload.id", "payload.status", "payload.caseFile", "payload.caseFile.id",
	"payload.caseFile.status", "payload.message",
}

// String lists the members' names, separated by ", ".
func (u unreadable) String() string {
	var b strings.Builder
	for i, name := range unreadableNames {
		if u&(1<<i) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
	}
	return b.String()
}

// errUnreadable keys the once-only log of unreadable members among the
// rejection reasons' (see logRejection).
var errUnreadable = &struct{ string }{"unreadable members"}

// logUnreadable reports an accepted event some of whose members could not
// be read: at warn level, with the event's id and type and the members'
// names, never their values or the body. Without WithLogger, the first such
// event is logged through slog.Default and later ones are not, as
// rejections are.
func (v *Verifier) logUnreadable(ctx context.Context, ev *Event, bad unreadable) {
	const msg = "webhooks: event accepted with members that could not be read; they are left zero"
	attrs := []slog.Attr{
		slog.String("event_id", ev.ID), slog.String("event_type", string(ev.Type)),
		slog.String("members", bad.String()),
	}
	if v.loggerSet {
		v.logger.LogAttrs(ctx, slog.LevelWarn, msg, attrs...)
		return
	}
	if _, seen := v.rejectionsLogged.LoadOrStore(errUnreadable, true); seen {
		return
	}
	attrs = append(attrs, slog.String("note", "logged once; WithLogger logs every such event"))
	slog.Default().LogAttrs(ctx, slog.LevelWarn, msg, attrs...)
}

// looseInt is an integer member read from a JSON number or a string that
// holds one ("531"), as package casefiles reads numbers. Any other value
// sets bad and, as encoding/json does with a value of the wrong type,
// leaves n as it was; null changes nothing.
type looseInt struct {
	n   int64
	bad bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (x *looseInt) UnmarshalJSON(data []byte) error {
	s := string(data)
	switch data[0] {
	case 'n':
		return nil
	case '"':
		if json.Unmarshal(data, &s) != nil {
			x.bad = true
			return nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		x.bad = true
		return nil
	}
	x.n = n
	return nil
}

// int returns x as an int; false when a value could not be read or does
// not fit an int (then 0).
func (x looseInt) int() (int, bool) {
	if int64(int(x.n)) != x.n {
		return 0, false
	}
	return int(x.n), !x.bad
}

// looseString is a string member: another value than a string sets bad and
// leaves s as it was; null changes nothing.
type looseString struct {
	s   string
	bad bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (x *looseString) UnmarshalJSON(data []byte) error {
	switch data[0] {
	case 'n':
	case '"':
		return json.Unmarshal(data, &x.s)
	default:
		x.bad = true
	}
	return nil
}

// looseTime is eventTime: an object of loose members, or bad.
type looseTime struct {
	in struct {
		Date         looseString `json:"date"`
		TimezoneType looseInt    `json:"timezone_type"` // read, not used
		Timezone     looseString `json:"timezone"`
	}
	bad bool
}

// UnmarshalJSON implements json.Unmarshaler; it fails only on malformed
// JSON, which the body's own decoding has refused before.
func (t *looseTime) UnmarshalJSON(data []byte) error {
	switch data[0] {
	case 'n':
	case '{':
		return json.Unmarshal(data, &t.in)
	default:
		t.bad = true
	}
	return nil
}

// unreadable returns the bits of t's members that could not be read.
func (t *looseTime) unreadable() unreadable {
	u := flag(t.bad, badEventTime) | flag(t.in.Date.bad, badDate) | flag(t.in.Timezone.bad, badTimezone)
	if _, ok := t.in.TimezoneType.int(); !ok {
		u |= badTimezoneType
	}
	return u
}

// looseCaseFile is a signer payload's caseFile: an object of loose
// members, or bad; set when an object was read.
type looseCaseFile struct {
	in struct {
		ID     looseInt `json:"id"`
		Status looseInt `json:"status"`
	}
	set, bad bool
}

// UnmarshalJSON implements json.Unmarshaler, as looseTime's.
func (c *looseCaseFile) UnmarshalJSON(data []byte) error {
	switch data[0] {
	case 'n':
	case '{':
		c.set = true
		return json.Unmarshal(data, &c.in)
	default:
		c.bad = true
	}
	return nil
}

// caseFileRef returns the case file that id and status name, and idBit and
// statusBit for those that could not be read.
func caseFileRef(id, status looseInt, idBit, statusBit unreadable) (CaseFileRef, unreadable) {
	st, ok := status.int()
	return CaseFileRef{ID: id.n, Status: st}, flag(id.bad, idBit) | flag(!ok, statusBit)
}

// loosePayload holds the members of every known topic's payload; the
// decoder reads only those of the event's topic.
type loosePayload struct {
	ID       looseInt      `json:"id"`       // a case file's or a signer's
	Status   looseInt      `json:"status"`   // a case file's
	CaseFile looseCaseFile `json:"caseFile"` // a signer's
	Message  looseString   `json:"message"`  // the test event's, as an object
}

// payloads collects every occurrence of the payload member, in order, so
// that they are applied as encoding/json applies repeated members to one
// struct: objects merge, null changes nothing.
type payloads []json.RawMessage

// UnmarshalJSON implements json.Unmarshaler. data is kept, not copied: it
// is a slice of the body, which json.Unmarshal does not change and which
// outlives the decoding.
func (p *payloads) UnmarshalJSON(data []byte) error {
	*p = append(*p, data)
	return nil
}

// flag returns bit when cond holds, else none.
func flag(cond bool, bit unreadable) unreadable {
	if cond {
		return bit
	}
	return 0
}
