package webhooks

import (
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"
)

// eventBox holds an Event and the references it points to, so that decoding
// allocates once.
type eventBox struct {
	ev     Event
	cf     CaseFileRef
	signer SignerRef
}

// span marks a value in the body; end 0 means absent.
type span struct{ start, end int }

// decodeEvent decodes body into an Event with the given id and type.
func decodeEvent(id string, typ EventType, body []byte) (*Event, error) {
	box := new(eventBox)
	ev := &box.ev
	ev.ID, ev.Type, ev.Raw = id, typ, json.RawMessage(body)
	if _, err := box.decode(body); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	return ev, nil
}

// Top-level members an Event carries, as bits of decode's seen set.
const (
	seenTopic = 1 << iota
	seenEventType
	seenEventTime
	seenAllButPayload = seenTopic | seenEventType | seenEventTime
)

// decode reads body up to the last field an Event carries and returns the
// index where it stopped reading.
//
// When topic, eventType and eventTime come before the payload, as the
// platform writes them, decode stops as soon as the payload's own fields
// are read (a payload of another topic once it is read whole): the rest of the
// body is authenticated by the signature and left to Raw, whose reader
// checks it. Otherwise it reads the whole body and checks all of it.
func (box *eventBox) decode(body []byte) (int, error) {
	s := scanner{b: body}
	if s.peek() != '{' {
		return s.i, errNotObject
	}
	ev := &box.ev
	var date, zone, payload span // date.end 0: no time
	var kind string              // the topic the payload was decoded for
	var seen uint8
	done := false // the payload was read and nothing else is needed
	m := s.object(1)
	for !done && m.next(&s) {
		switch m.key {
		case kwTopic:
			m.err = s.stringInto(&ev.Topic)
			seen |= seenTopic
		case kwEventType:
			m.err = s.stringInto(&ev.EventType)
			seen |= seenEventType
		case kwEventTime:
			m.err = s.eventTime(&date, &zone)
			seen |= seenEventTime
		case kwPayload:
			done, m.err = box.payloadAt(&s, &payload, &kind, seen)
		default:
			m.err = s.skip(1)
		}
	}
	if m.err != nil {
		return s.i, m.err
	}
	if !done {
		if s.peek(); s.i != len(body) {
			return s.i, errTrailing
		}
	}
	return s.i, box.finish(body, date, zone, payload, kind)
}

// finish sets the time from eventTime's date and zone, and decodes the
// payload when the topic differs from the one it was decoded for (kind): a
// payload that came before the topic was only checked.
func (box *eventBox) finish(body []byte, date, zone, payload span, kind string) error {
	if date.end > 0 {
		if err := box.setTime(body[date.start:date.end], body[zone.start:zone.end]); err != nil {
			return err
		}
	}
	if payload.end > 0 && box.topic() != kind {
		box.ev.CaseFile, box.ev.Signer, box.ev.Message = nil, nil, ""
		box.cf, box.signer = CaseFileRef{}, SignerRef{}
		ps := scanner{b: body[payload.start:payload.end]}
		_, err := box.decodePayload(&ps, box.topic(), false)
		return err
	}
	return nil
}

// topic is the body's topic, or else the one in the event type.
func (box *eventBox) topic() string {
	if box.ev.Topic != "" {
		return box.ev.Topic
	}
	return box.ev.Type.Topic()
}

// payloadAt decodes the payload at s.i for the body's topic, and records
// where it was and for which topic it was decoded (kind). seen tells which
// other members came before it: when the topic has not, the payload is only
// checked here and decoded by finish, once the topic is known. When all have,
// decoding may stop inside the payload once its fields are read, and
// payloadAt reports so.
func (box *eventBox) payloadAt(s *scanner, sp *span, kind *string, seen uint8) (bool, error) {
	s.peek()
	start := s.i
	if seen&seenTopic == 0 { // a topic may follow: decode at the end
		*kind = ""
		err := s.skip(1)
		*sp = span{start, s.i}
		return false, err
	}
	*kind = box.topic()
	done, err := box.decodePayload(s, *kind, seen == seenAllButPayload)
	if err != nil || done {
		return done, err
	}
	*sp = span{start, s.i}
	return false, nil
}

// unquote decodes the content of a string that holds escapes.
func unquote(raw []byte) (string, error) {
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var out string
	if err := json.Unmarshal(quoted, &out); err != nil {
		return "", errSyntax
	}
	return out, nil
}

// stringValue scans a string value and returns its content between the
// quotes and whether it holds escapes; null answers ok false.
func (s *scanner) stringValue() (raw []byte, esc, ok bool, err error) {
	if s.peek() != '"' {
		if s.null() {
			return nil, false, false, nil
		}
		return nil, false, false, errNotString
	}
	start, esc, err := s.str()
	if err != nil {
		return nil, false, false, err
	}
	return s.b[start : s.i-1], esc, true, nil
}

// stringInto decodes a string value into *dst; null leaves *dst alone.
func (s *scanner) stringInto(dst *string) error {
	raw, esc, ok, err := s.stringValue()
	if !ok || err != nil {
		return err
	}
	if esc {
		*dst, err = unquote(raw)
		return err
	}
	if v, ok := interned(raw); ok {
		*dst = v
		return nil
	}
	if !utf8.Valid(raw) {
		// Like encoding/json, invalid UTF-8 becomes U+FFFD.
		*dst, err = unquote(raw)
		return err
	}
	*dst = string(raw)
	return nil
}

// interned returns the strings that event bodies repeat without
// allocating: the topics and the event names of the specification.
func interned(b []byte) (string, bool) {
	switch string(b) {
	case TopicCaseFile:
		return TopicCaseFile, true
	case TopicSigner:
		return TopicSigner, true
	case TopicSubscription:
		return TopicSubscription, true
	case "completed":
		return "completed", true
	case "expired":
		return "expired", true
	case "failed":
		return "failed", true
	case "rejected":
		return "rejected", true
	case "requestActivated":
		return "requestActivated", true
	case "requestSent":
		return "requestSent", true
	case "reminderSent":
		return "reminderSent", true
	case "requestOpened":
		return "requestOpened", true
	case "undeliverable":
		return "undeliverable", true
	case "opened":
		return "opened", true
	case "signed":
		return "signed", true
	case "signedWithImageUploadAndNAP":
		return "signedWithImageUploadAndNAP", true
	case "finalized":
		return "finalized", true
	case "deleted":
		return "deleted", true
	case "transientBounce":
		return "transientBounce", true
	case "test":
		return "test", true
	}
	return "", false
}

// eventTime scans {"date":..., "timezone_type":..., "timezone":...} and
// records where its date and timezone are (a null eventTime clears them),
// checking that timezone_type is an integer.
func (s *scanner) eventTime(date, zone *span) error {
	if s.null() {
		*date, *zone = span{}, span{}
		return nil
	}
	var d, z span
	m := s.object(2)
	for m.next(s) {
		switch m.key {
		case kwDate:
			m.err = s.stringSpan(&d)
		case kwTimezone:
			m.err = s.stringSpan(&z)
		case kwTimezoneType:
			var n int64
			m.err = s.integer(&n)
		default:
			m.err = s.skip(2)
		}
	}
	*date, *zone = d, z
	return m.err
}

// setTime sets the event's time from eventTime's date and timezone.
func (box *eventBox) setTime(date, zone []byte) error {
	loc, err := location(zone)
	if err != nil {
		return err
	}
	t, ok := parseDate(date, loc)
	if !ok {
		return errBadDate
	}
	box.ev.Time = t
	return nil
}

// stringSpan records the content of a string value without escapes; the
// date and timezone values never need any. null leaves *sp alone.
func (s *scanner) stringSpan(sp *span) error {
	raw, esc, ok, err := s.stringValue()
	switch {
	case !ok || err != nil:
		return err
	case esc:
		return errBadZone
	case len(raw) == 0:
		*sp = span{} // "" is treated as absent
	default:
		*sp = span{s.i - 1 - len(raw), s.i - 1}
	}
	return nil
}

// location resolves a timezone name: an IANA name, UTC, or an offset such as
// "+02:00" or "-0530". An empty name means UTC.
func location(name []byte) (*time.Location, error) {
	switch string(name) {
	case "", "UTC", "Z", "utc", "Etc/UTC", "GMT", "+00:00":
		return time.UTC, nil
	}
	if off, ok := parseOffset(name); ok {
		return time.FixedZone(string(name), off), nil
	}
	loc, err := time.LoadLocation(string(name))
	if err != nil {
		return nil, errBadZone
	}
	return loc, nil
}

// parseOffset parses ±hh, ±hhmm or ±hh:mm into seconds east of UTC.
func parseOffset(b []byte) (int, bool) {
	if len(b) < 3 || b[0] != '+' && b[0] != '-' {
		return 0, false
	}
	digits := [4]byte{'0', '0', '0', '0'}
	switch {
	case len(b) == 3:
		copy(digits[:2], b[1:3])
	case len(b) == 5:
		copy(digits[:], b[1:5])
	case len(b) == 6 && b[3] == ':':
		copy(digits[:2], b[1:3])
		copy(digits[2:], b[4:6])
	default:
		return 0, false
	}
	h, ok1 := num2(digits[0:2])
	m, ok2 := num2(digits[2:4])
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, false
	}
	off := h*3600 + m*60
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

func num2(b []byte) (int, bool) {
	if len(b) != 2 || !isDigit(b[0]) || !isDigit(b[1]) {
		return 0, false
	}
	return int(b[0]-'0')*10 + int(b[1]-'0'), true
}

// parseDate parses "2006-01-02 15:04:05" with an optional fraction of up to
// nine digits ("T" is accepted for the space) in loc.
func parseDate(b []byte, loc *time.Location) (time.Time, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != ' ' && b[10] != 'T') ||
		b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	y1, ok1 := num2(b[0:2])
	y2, ok2 := num2(b[2:4])
	mo, ok3 := num2(b[5:7])
	d, ok4 := num2(b[8:10])
	h, ok5 := num2(b[11:13])
	mi, ok6 := num2(b[14:16])
	sec, ok7 := num2(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) ||
		mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	nsec, ok := parseFraction(b[19:])
	if !ok {
		return time.Time{}, false
	}
	if d > daysIn(mo, y1*100+y2) { // 31 April and the like
		return time.Time{}, false
	}
	return time.Date(y1*100+y2, time.Month(mo), d, h, mi, sec, nsec, loc), true
}

// daysIn returns the number of days of month m in year y.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseFraction parses "" or "." followed by 1 to 9 digits into nanoseconds.
func parseFraction(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, true
	}
	if b[0] != '.' || len(b) < 2 || len(b) > 10 {
		return 0, false
	}
	nsec := 0
	for _, c := range b[1:] {
		if !isDigit(c) {
			return 0, false
		}
		nsec = nsec*10 + int(c-'0')
	}
	return nsec * fractionScale[len(b)-1], true
}

// fractionScale[n] turns n fraction digits into nanoseconds.
var fractionScale = [10]int{0, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// decodePayload decodes the payload value at s.i for topic. With mayStop
// it stops once the fields the Event carries are read (a payload of another
// topic once it is read whole), and reports whether it did. Without mayStop
// it reads and checks the whole payload.
func (box *eventBox) decodePayload(s *scanner, topic string, mayStop bool) (done bool, err error) {
	if s.null() {
		if !mayStop {
			return false, nil
		}
		return s.stop()
	}
	switch topic {
	case TopicCaseFile:
		box.ev.CaseFile = &box.cf
		return s.caseFile(&box.cf, 2, mayStop)
	case TopicSigner:
		box.ev.Signer = &box.signer
		return box.signerPayload(s, mayStop)
	case TopicSubscription:
		if s.peek() == '"' {
			if err := s.stringInto(&box.ev.Message); err != nil || !mayStop {
				return false, err
			}
			return s.stop()
		}
		return box.testPayload(s, mayStop)
	}
	if err := s.skip(1); err != nil || !mayStop {
		return false, err
	}
	return s.stop()
}

// stop ends decoding early, after the last value an Event needs: what
// follows that value must be the ',' or '}' of its object, so that the
// value read is whole (a number such as 05 is not cut after its 0).
func (s *scanner) stop() (bool, error) {
	switch s.peek() {
	case ',', '}':
		return true, nil
	case 0:
		return false, errEOF
	}
	return false, errSyntax
}

// testPayload decodes {"message":...} of a test event.
func (box *eventBox) testPayload(s *scanner, mayStop bool) (bool, error) {
	m := s.object(2)
	for m.next(s) {
		if m.key != kwMessage {
			m.err = s.skip(2)
		} else if m.err = s.stringInto(&box.ev.Message); mayStop && m.err == nil {
			return s.stop()
		}
	}
	return false, m.err
}

// signerPayload decodes {"id":..., "caseFile":{...}}.
func (box *eventBox) signerPayload(s *scanner, mayStop bool) (bool, error) {
	var found uint8 // 1: id, 2: caseFile
	m := s.object(2)
	for m.next(s) {
		switch m.key {
		case kwID:
			m.err = s.integer(&box.signer.ID)
			found |= 1
		case kwCaseFile:
			found |= 2
			if s.null() {
				break
			}
			box.ev.CaseFile = &box.cf
			_, m.err = s.caseFile(&box.cf, 3, false)
		default:
			m.err = s.skip(2)
		}
		if mayStop && found == 3 && m.err == nil {
			return s.stop()
		}
	}
	return false, m.err
}

// caseFile decodes {"id":..., "status":...} at the given depth.
func (s *scanner) caseFile(cf *CaseFileRef, depth int, mayStop bool) (bool, error) {
	var found uint8 // 1: id, 2: status
	m := s.object(depth)
	for m.next(s) {
		switch m.key {
		case kwID:
			m.err = s.integer(&cf.ID)
			found |= 1
		case kwStatus:
			n := int64(cf.Status)
			if m.err = s.integer(&n); m.err == nil && int64(int(n)) != n {
				m.err = errNotInt
			}
			cf.Status = int(n)
			found |= 2
		default:
			m.err = s.skip(depth)
		}
		if mayStop && found == 3 && m.err == nil {
			return s.stop()
		}
	}
	return false, m.err
}
