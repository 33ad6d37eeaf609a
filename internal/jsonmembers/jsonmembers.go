// Package jsonmembers keeps the members of a JSON object that a Go type
// does not model, so that a decode and re-encode loses nothing (the Extra
// maps of forms and casefiles). Names match without regard to case, as
// encoding/json matches them.
package jsonmembers

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Names are the member names a type models, lower-cased.
type Names map[string]bool

// Of answers the JSON member names of the exported fields of the struct
// type t, as encoding/json reads them, and the aliases given.
func Of(t reflect.Type, aliases ...string) Names {
	names := Names{}
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
		names[strings.ToLower(name)] = true
	}
	for _, a := range aliases {
		names[strings.ToLower(a)] = true
	}
	return names
}

// Has reports whether encoding/json reads the member name into one of n.
func (n Names) Has(name string) bool { return n[strings.ToLower(name)] }

// Unknown answers the members of the JSON object b that known does not
// model, or nil when there are none (or b is not an object).
func Unknown(b []byte, known Names) map[string]json.RawMessage {
	var all map[string]json.RawMessage
	if json.Unmarshal(b, &all) != nil {
		return nil
	}
	for k := range all {
		if known.Has(k) {
			delete(all, k)
		}
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

// With adds to the JSON object b the members of extra that b does not have
// and that known does not model (an empty modelled value may have been left
// out of b); b is returned as is when extra is empty.
func With(b []byte, extra map[string]json.RawMessage, known Names) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, ok := all[k]; !ok && !known.Has(k) && json.Valid(v) {
			all[k] = v
		}
	}
	return json.Marshal(all)
}
