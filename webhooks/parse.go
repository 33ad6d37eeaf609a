package webhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// wireEvent is the JSON shape of an event body (docs/webhooks.md). The
// payload is kept raw and decoded once the topic is known, since the topic
// may follow it in the body.
type wireEvent struct {
	Topic     string          `json:"topic"`
	EventType string          `json:"eventType"`
	EventTime *wireTime       `json:"eventTime"`
	Payload   json.RawMessage `json:"payload"`
}

type wireTime struct {
	Date         string `json:"date"`
	TimezoneType *int   `json:"timezone_type"`
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
// when the body has none, for typ's.
func decodeBody(body []byte, typ EventType) (*Event, error) {
	// Unmarshal accepts null for a struct; an event must be an object.
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("body is not a JSON object")
	}
	var w wireEvent
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	ev := &Event{Topic: w.Topic, EventType: w.EventType}
	if w.EventTime != nil && w.EventTime.Date != "" {
		t, err := parseEventTime(w.EventTime.Date, w.EventTime.Timezone)
		if err != nil {
			return nil, err
		}
		ev.Time = t
	}
	topic := w.Topic
	if topic == "" {
		topic = typ.Topic()
	}
	if err := decodePayload(ev, topic, w.Payload); err != nil {
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
