package webhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// oneEvent is the JSON shape of an event body (docs/webhooks.md) decoded
// in one pass: the payload fields of the known topics share one struct (a
// case file's id and status, a signer's id and caseFile, a test event's
// message), since the topic may follow the payload in the body. Values, not
// pointers, so that decoding allocates little: a payload or caseFile that
// decodes to zero (absent, null, empty or all zeros, which these values
// cannot tell apart) goes to the two-step decoding, which can.
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

// wireEvent is the same shape decoded in two steps: the payload is kept raw
// and decoded for its topic. It serves the bodies that oneEvent cannot
// take: a payload that is a string (the test event's) or whose fields of
// other topics have other types.
type wireEvent struct {
	Topic     string          `json:"topic"`
	EventType string          `json:"eventType"`
	EventTime *wireTime       `json:"eventTime"`
	Payload   json.RawMessage `json:"payload"`
}

type wireTime struct {
	Date         string `json:"date"`
	TimezoneType int    `json:"timezone_type"` // checked to be an integer, not used
	Timezone     string `json:"timezone"`
}

// wireCaseFile is the payload of a case file event, and a signer's caseFile.
type wireCaseFile struct {
	ID     int64 `json:"id"`
	Status int   `json:"status"`
}

type wireSigner struct {
	ID       int64         `json:"id"`
	CaseFile *wireCaseFile `json:"caseFile"`
}

type wireTest struct {
	Message string `json:"message"`
}

// decodeEvent decodes body, which must be exactly one JSON object, into an
// Event with the given id and type. Every failure matches ErrInvalidPayload.
func decodeEvent(id string, typ EventType, body []byte) (*Event, error) {
	ev, err := decodeBody(body, typ)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	ev.ID, ev.Type, ev.Raw = id, typ, json.RawMessage(body)
	return ev, nil
}

// decodeBody decodes body; a payload is decoded for the body's topic, or
// when the body has none, for typ's. It decodes in one pass when it can,
// and in two (decodeExact) when the payload does not fit the shared shape.
func decodeBody(body []byte, typ EventType) (*Event, error) {
	// Unmarshal accepts null for a struct; an event must be an object.
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("body is not a JSON object")
	}
	var w oneEvent
	err := json.Unmarshal(body, &w)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
	case errors.As(err, &te) && (te.Field == "payload" || strings.HasPrefix(te.Field, "payload.")):
		return decodeExact(body, typ)
	default:
		return nil, err
	}
	p := &w.Payload
	topic := topicOf(w.Topic, typ)
	if *p == (onePayload{}) || topic == TopicSigner && p.CaseFile == (wireCaseFile{}) {
		return decodeExact(body, typ)
	}
	box, err := newEvent(w.Topic, w.EventType, &w.EventTime)
	if err != nil {
		return nil, err
	}
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
	return ev, nil
}

// eventBox holds an Event and the references it points to, so that one
// allocation serves them all.
type eventBox struct {
	ev     Event
	cf     CaseFileRef
	signer SignerRef
}

// newEvent starts an Event with the body's topic, event type and time.
func newEvent(topic, eventType string, t *wireTime) (*eventBox, error) {
	box := &eventBox{ev: Event{Topic: topic, EventType: eventType}}
	if t != nil && t.Date != "" {
		at, err := parseEventTime(t.Date, t.Timezone)
		if err != nil {
			return nil, err
		}
		box.ev.Time = at
	}
	return box, nil
}

// topicOf is the body's topic, or when the body has none, typ's.
func topicOf(topic string, typ EventType) string {
	if topic == "" {
		return typ.Topic()
	}
	return topic
}

// decodeExact decodes body in two steps (wireEvent): every failure is
// reported, and a payload's fields are checked for its topic only.
func decodeExact(body []byte, typ EventType) (*Event, error) {
	var w wireEvent
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	box, err := newEvent(w.Topic, w.EventType, w.EventTime)
	if err != nil {
		return nil, err
	}
	ev := &box.ev
	if err := decodePayload(ev, topicOf(w.Topic, typ), w.Payload); err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return ev, nil
}

// decodePayload sets the fields of ev that a payload of topic carries.
// Payloads of other topics are left to Raw; a null payload sets nothing.
func decodePayload(ev *Event, topic string, p json.RawMessage) error {
	if len(p) == 0 || string(p) == "null" {
		return nil
	}
	switch topic {
	case TopicCaseFile:
		var cf wireCaseFile
		if err := unmarshalObject(p, &cf); err != nil {
			return err
		}
		ev.CaseFile = &CaseFileRef{ID: cf.ID, Status: cf.Status}
	case TopicSigner:
		var s wireSigner
		if err := unmarshalObject(p, &s); err != nil {
			return err
		}
		ev.Signer = &SignerRef{ID: s.ID}
		if s.CaseFile != nil {
			ev.CaseFile = &CaseFileRef{ID: s.CaseFile.ID, Status: s.CaseFile.Status}
		}
	case TopicSubscription:
		if p[0] == '"' { // the platform sends the message as a string
			return json.Unmarshal(p, &ev.Message)
		}
		var m wireTest
		if err := unmarshalObject(p, &m); err != nil {
			return err
		}
		ev.Message = m.Message
	}
	return nil
}

// unmarshalObject decodes p, which must be a JSON object, into v.
func unmarshalObject(p json.RawMessage, v any) error {
	if p[0] != '{' {
		return errors.New("not a JSON object")
	}
	return json.Unmarshal(p, v)
}

// maxFractionDigits bounds the fraction of eventTime's date: nanoseconds.
const maxFractionDigits = 9

// parseEventTime parses eventTime's date, "2006-01-02 15:04:05" with an
// optional fraction ("T" is accepted for the space), in the named zone.
func parseEventTime(date, zone string) (time.Time, error) {
	loc, err := location(zone)
	if err != nil {
		return time.Time{}, err
	}
	if t, ok := platformDate(date, loc); ok {
		return t, nil
	}
	if _, frac, ok := strings.Cut(date, "."); ok && len(frac) > maxFractionDigits {
		return time.Time{}, errors.New("eventTime date has more than 9 fraction digits")
	}
	layout := "2006-01-02 15:04:05.999999999"
	if len(date) > 10 && date[10] == 'T' {
		layout = "2006-01-02T15:04:05.999999999"
	}
	t, err := time.ParseInLocation(layout, date, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("eventTime date: %w", err)
	}
	return t, nil
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
