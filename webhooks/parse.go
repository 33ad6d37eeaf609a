package webhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// oneEvent is the JSON shape of an event body
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md) decoded in
// one pass: the payload fields of the known topics share one struct (a case
// file's id and status, a signer's id and caseFile, a test event's message),
// since the topic may follow the payload in the body. Values, not pointers, so
// that decoding allocates little: a payload or caseFile that decodes to zero
// (absent, null, empty or all zeros, which these values cannot tell apart) goes
// to the two-step decoding, which can, and so does any member of another JSON
// type than these fields' (a numeric string, a payload of another topic's
// shape, a member the liberal rule leaves zero).
type oneEvent struct {
	Topic     string     `json:"topic"`
	EventType string     `json:"eventType"`
	EventTime wireTime   `json:"eventTime"` // null leaves it zero: no time
	Payload   onePayload `json:"payload"`
}

type onePayload struct {
	ID       int64        `json:"id"`
	Status   int          `json:"status"`
	CaseFile wireCaseFile `json:"caseFile"`
	Message  string       `json:"message"`
}

type wireTime struct {
	Date         string `json:"date"`
	TimezoneType int    `json:"timezone_type"` // read, not used
	Timezone     string `json:"timezone"`
}

// wireCaseFile is a signer payload's caseFile.
type wireCaseFile struct {
	ID     int64 `json:"id"`
	Status int   `json:"status"`
}

// looseEvent is the same shape decoded in two steps, liberally
// (liberal.go): every member of its own type, which reads what it can and
// records what it cannot; the payload's occurrences are kept raw and
// decoded for the body's topic.
type looseEvent struct {
	Topic     looseString `json:"topic"`
	EventType looseString `json:"eventType"`
	EventTime looseTime   `json:"eventTime"`
	Payload   payloads    `json:"payload"`
}

// decodeEvent decodes body, which must be exactly one JSON object, into an
// Event with the given id and type, and reports the members that could not
// be read and are left zero. Only a body that is not one whole JSON object
// fails, with an error that matches ErrInvalidPayload.
func decodeEvent(id string, typ EventType, body []byte) (*Event, unreadable, error) {
	ev, bad, err := decodeBody(body, typ)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	ev.ID, ev.Type, ev.Raw = id, typ, json.RawMessage(body)
	return ev, bad, nil
}

// decodeBody decodes body; a payload is decoded for the body's topic, or
// when the body has none, for typ's. It decodes in one pass when it can,
// and in two (decodeLoose) when a member does not fit the shared shape.
func decodeBody(body []byte, typ EventType) (*Event, unreadable, error) {
	// Unmarshal accepts null for a struct; an event must be an object.
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, 0, errors.New("body is not a JSON object")
	}
	var w oneEvent
	err := json.Unmarshal(body, &w)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
	case errors.As(err, &te): // the JSON is whole: a member of another type
		return decodeLoose(body, typ)
	default:
		return nil, 0, err
	}
	p := &w.Payload
	topic := topicOf(w.Topic, typ)
	if *p == (onePayload{}) || topic == TopicSigner && p.CaseFile == (wireCaseFile{}) {
		return decodeLoose(body, typ)
	}
	box, bad := newEvent(w.Topic, w.EventType, w.EventTime.Date, w.EventTime.Timezone)
	ev := &box.ev
	switch topic {
	case TopicCaseFile:
		box.cf = CaseFileRef{ID: p.ID, Status: p.Status}
		ev.CaseFile = &box.cf
	case TopicSigner:
		box.signer = SignerRef{ID: p.ID}
		box.cf = CaseFileRef{ID: p.CaseFile.ID, Status: p.CaseFile.Status}
		ev.Signer, ev.CaseFile = &box.signer, &box.cf
	case TopicSubscription:
		ev.Message = p.Message
	}
	return ev, bad, nil
}

// eventBox holds an Event and the references it points to, so that one
// allocation serves them all.
type eventBox struct {
	ev     Event
	cf     CaseFileRef
	signer SignerRef
}

// newEvent starts an Event with the body's topic, event type and time; a
// time that cannot be read is left zero and reported.
func newEvent(topic, eventType, date, zone string) (*eventBox, unreadable) {
	box := &eventBox{ev: Event{Topic: topic, EventType: eventType}}
	if date == "" {
		return box, 0
	}
	loc, err := location(zone)
	if err != nil {
		return box, badTimezone
	}
	at, ok := parseEventTime(date, loc)
	if !ok {
		return box, badDate
	}
	box.ev.Time = at
	return box, 0
}

// topicOf is the body's topic, or when the body has none, typ's.
func topicOf(topic string, typ EventType) string {
	if topic == "" {
		return typ.Topic()
	}
	return topic
}

// decodeLoose decodes body in two steps (looseEvent): a member of an
// unexpected type is left zero and reported, and a payload's members are
// read for its topic only. It fails only when body is not valid JSON.
func decodeLoose(body []byte, typ EventType) (*Event, unreadable, error) {
	var w looseEvent
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, 0, err
	}
	t := &w.EventTime.in
	box, bad := newEvent(w.Topic.s, w.EventType.s, t.Date.s, t.Timezone.s)
	bad |= flag(w.Topic.bad, badTopic) | flag(w.EventType.bad, badEventType) | w.EventTime.unreadable()
	ev := &box.ev
	pb, err := decodePayload(ev, topicOf(w.Topic.s, typ), w.Payload)
	if err != nil {
		return nil, 0, fmt.Errorf("payload: %w", err)
	}
	return ev, bad | pb, nil
}

// decodePayload sets the fields of ev that a payload of topic carries,
// applying its occurrences in order, and reports what it could not read.
// Payloads of other topics are left to Raw; a null payload sets nothing.
func decodePayload(ev *Event, topic string, occurrences payloads) (unreadable, error) {
	var p loosePayload
	var bad unreadable
	objects := false
	for _, raw := range occurrences {
		switch {
		case raw[0] == '{':
			objects = true
			if err := json.Unmarshal(raw, &p); err != nil {
				return 0, err
			}
		case raw[0] == '"' && topic == TopicSubscription: // the platform sends the message as a string
			if err := json.Unmarshal(raw, &p.Message.s); err != nil {
				return 0, err
			}
		case raw[0] != 'n':
			bad |= badPayload
		}
	}
	switch topic {
	case TopicCaseFile:
		if objects {
			cf, b := caseFileRef(p.ID, p.Status, badID, badStatus)
			ev.CaseFile, bad = &cf, bad|b
		}
	case TopicSigner:
		if objects {
			ev.Signer, bad = &SignerRef{ID: p.ID.n}, bad|flag(p.ID.bad, badID)
		}
		if p.CaseFile.set {
			cf, b := caseFileRef(p.CaseFile.in.ID, p.CaseFile.in.Status, badCaseFileID, badCaseFileStatus)
			ev.CaseFile, bad = &cf, bad|b
		}
		bad |= flag(p.CaseFile.bad, badCaseFile)
	case TopicSubscription:
		ev.Message, bad = p.Message.s, bad|flag(p.Message.bad, badMessage)
	default:
		bad &^= badPayload // another topic's payload may be anything
	}
	return bad, nil
}

// maxFractionDigits bounds the fraction of eventTime's date: nanoseconds.
const maxFractionDigits = 9

// parseEventTime parses eventTime's date, "2006-01-02 15:04:05" with an
// optional fraction of up to nine digits ("T" is accepted for the space),
// in loc; false when date is not such a date.
func parseEventTime(date string, loc *time.Location) (time.Time, bool) {
	if t, ok := platformDate(date, loc); ok {
		return t, true
	}
	if _, frac, ok := strings.Cut(date, "."); ok && len(frac) > maxFractionDigits {
		return time.Time{}, false
	}
	layout := "2006-01-02 15:04:05.999999999"
	if len(date) > 10 && date[10] == 'T' {
		layout = "2006-01-02T15:04:05.999999999"
	}
	t, err := time.ParseInLocation(layout, date, loc)
	return t, err == nil
}

// platformDate parses the form the platform sends, "2006-01-02
// 15:04:05.000000" (six fraction digits), without time.Parse's generality;
// false for anything else, which parseEventTime then parses.
func platformDate(s string, loc *time.Location) (time.Time, bool) {
	const layout = "dddd-dd-dd dd:dd:dd.dddddd"
	if len(s) != len(layout) {
		return time.Time{}, false
	}
	for i := 0; i < len(s); i++ {
		if d := layout[i] == 'd'; d != ('0' <= s[i] && s[i] <= '9') || !d && s[i] != layout[i] {
			return time.Time{}, false
		}
	}
	num := func(from, to int) int {
		n := 0
		for _, c := range s[from:to] {
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, mo, d := num(0, 4), num(5, 7), num(8, 10)
	h, mi, sec, micro := num(11, 13), num(14, 16), num(17, 19), num(20, 26)
	t := time.Date(y, time.Month(mo), d, h, mi, sec, micro*1000, loc)
	// time.Date normalizes 31 April into 1 May: such a date is not one.
	if mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59 || t.Day() != d || int(t.Month()) != mo {
		return time.Time{}, false
	}
	return t, true
}

// location resolves eventTime's timezone: an IANA name, UTC, or an offset
// such as "+02:00" or "-0530". An empty name means UTC.
func location(name string) (*time.Location, error) {
	switch name {
	case "", "UTC", "Z", "utc", "Etc/UTC", "GMT", "+00:00":
		return time.UTC, nil
	}
	if name[0] == '+' || name[0] == '-' {
		for _, layout := range []string{"-07:00", "-0700", "-07"} {
			if t, err := time.Parse(layout, name); err == nil {
				_, off := t.Zone()
				return time.FixedZone(name, off), nil
			}
		}
		return nil, fmt.Errorf("eventTime timezone %q is not an offset", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("eventTime timezone %q is unknown", name)
	}
	return loc, nil
}
