package forms

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// A form, each of its sections and each of their fields keep the members the
// mock does not model (a storage folder of the vendor's form builder, say) and
// give them back as sent: a Get → Update round trip loses nothing
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).

// members are the members of a JSON object that its Go type does not model,
// as sent.
type members map[string]json.RawMessage

// memberNames answers the JSON names of the fields of the struct type t.
func memberNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" {
			names = append(names, cmpOr(name, f.Name))
		}
	}
	return names
}

var (
	formNames    = memberNames(reflect.TypeFor[formJSON]())
	sectionNames = memberNames(reflect.TypeFor[sectionJSON]())
	fieldNames   = memberNames(reflect.TypeFor[fieldJSON]())
)

// modelled reports whether encoding/json reads the member name into a field
// of one of names: it matches names case-insensitively.
func modelled(name string, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
}

// unknownMembers answers the members of the JSON object b that names do not
// model, or nil when there are none.
func unknownMembers(b []byte, names []string) (members, error) {
	var all members
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	for k := range all {
		if modelled(k, names) {
			delete(all, k)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// appendMembers adds the members of extra, in name order, to the JSON
// object b; names never come from extra, which decoding fills only with
// other members.
func appendMembers(b []byte, extra members, names []string) []byte {
	if len(extra) == 0 {
		return b
	}
	b = b[:len(b)-1] // drop the object's own closing brace, and only that one
	for _, k := range sortedKeys(extra) {
		if modelled(k, names) {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(k) // a string: cannot fail
		b = append(append(append(b, key...), ':'), extra[k]...)
	}
	return append(b, '}')
}

// OpenAPIOpen: a form admits members the mock does not model.
func (formJSON) OpenAPIOpen() {}

// OpenAPIOpen: a section admits members the mock does not model.
func (sectionJSON) OpenAPIOpen() {}

// OpenAPIOpen: a field admits members the mock does not model.
func (fieldJSON) OpenAPIOpen() {}

// MarshalJSON writes the form with its Extra members.
func (f formJSON) MarshalJSON() ([]byte, error) {
	type plain formJSON
	b, err := json.Marshal(plain(f))
	if err != nil {
		return nil, err
	}
	return appendMembers(b, f.Extra, formNames), nil
}

// UnmarshalJSON reads the form, keeping the members it does not model in Extra.
func (f *formJSON) UnmarshalJSON(b []byte) error {
	type plain formJSON
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	var err error
	f.Extra, err = unknownMembers(b, formNames)
	return err
}

// MarshalJSON writes the section with its Extra members.
func (s sectionJSON) MarshalJSON() ([]byte, error) {
	type plain sectionJSON
	b, err := json.Marshal(plain(s))
	if err != nil {
		return nil, err
	}
	return appendMembers(b, s.Extra, sectionNames), nil
}

// UnmarshalJSON reads the section, keeping the members it does not model in Extra.
func (s *sectionJSON) UnmarshalJSON(b []byte) error {
	type plain sectionJSON
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	var err error
	s.Extra, err = unknownMembers(b, sectionNames)
	return err
}

// MarshalJSON writes the field with its Extra members.
func (f fieldJSON) MarshalJSON() ([]byte, error) {
	type plain fieldJSON
	b, err := json.Marshal(plain(f))
	if err != nil {
		return nil, err
	}
	return appendMembers(b, f.Extra, fieldNames), nil
}

// UnmarshalJSON reads the field, keeping the members it does not model in Extra.
func (f *fieldJSON) UnmarshalJSON(b []byte) error {
	type plain fieldJSON
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	var err error
	f.Extra, err = unknownMembers(b, fieldNames)
	return err
}
