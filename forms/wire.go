package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// This file holds the JSON helpers that let the form types give back, on
// Update, every property the service sent on Get, including properties this
// package does not model (see docs/platform.md, "Forms": every property is
// stored and given back as sent).

// flexString decodes a JSON string or number into a string; null and other
// kinds leave it empty.
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("forms: want a string or a number, got %s", b)
		}
		*s = flexString(n.String())
	}
	return nil
}

// rawText returns a JSON value as text: a string as itself, null as "", and
// any other value (number, boolean, object, array) in its JSON spelling.
func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return ""
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// jsonNames returns the JSON member names of the exported fields of the
// struct type t, as encoding/json spells them.
func jsonNames(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
	return names
}

// modelled reports whether encoding/json reads the member name into one of
// the known members: it matches names case-insensitively ("Name" is name).
func modelled(name string, known map[string]bool) bool {
	if known[name] {
		return true
	}
	for k := range known {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// unknownMembers returns the members of the JSON object b that are not
// known members (see modelled), or nil when there are none (or b is not an
// object).
func unknownMembers(b []byte, known map[string]bool) map[string]json.RawMessage {
	var all map[string]json.RawMessage
	if json.Unmarshal(b, &all) != nil {
		return nil
	}
	maps.DeleteFunc(all, func(k string, _ json.RawMessage) bool { return modelled(k, known) })
	if len(all) == 0 {
		return nil
	}
	return all
}

// withMembers adds to the JSON object b the members of extra that b does
// not have and whose names are not in known (the members the type models,
// which an empty value may have left out of b); b is returned as is when
// extra is empty.
func withMembers(b []byte, extra map[string]json.RawMessage, known map[string]bool) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := all[k]; !ok && !modelled(k, known) && json.Valid(v) {
			all[k] = v
		}
	}
	return json.Marshal(all)
}
