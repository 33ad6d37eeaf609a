package jsonmembers

import (
	"encoding/json"
	"reflect"
	"testing"
)

type sample struct {
	Name   string `json:"name"`
	Hidden string `json:"-"`
	Plain  int
	Opt    string `json:"opt,omitempty"`
	inner  int
}

func TestOfAndHas(t *testing.T) {
	n := Of(reflect.TypeFor[sample](), "formId")
	for _, name := range []string{"name", "NAME", "Plain", "plain", "opt", "formid", "FormId"} {
		if !n.Has(name) {
			t.Errorf("%q is modelled", name)
		}
	}
	for _, name := range []string{"Hidden", "inner", "other"} {
		if n.Has(name) {
			t.Errorf("%q is not modelled", name)
		}
	}
	_ = sample{}.inner
}

func TestUnknownAndWith(t *testing.T) {
	n := Of(reflect.TypeFor[sample]())
	extra := Unknown([]byte(`{"Name":"a","plain":1,"storage":42,"theme":{"a":1}}`), n)
	if len(extra) != 2 || string(extra["storage"]) != "42" || string(extra["theme"]) != `{"a":1}` {
		t.Fatalf("Unknown = %s", extra)
	}
	if Unknown([]byte(`{"name":"a"}`), n) != nil || Unknown([]byte(`[1]`), n) != nil {
		t.Error("nothing unknown, or no object: want nil")
	}
	extra["OPT"] = json.RawMessage(`"shadow"`) // modelled: never sent from extra
	extra["name"] = json.RawMessage(`"again"`) // already in b
	extra["bad"] = json.RawMessage(`{`)        // not JSON: dropped
	b, err := With([]byte(`{"name":"a"}`), extra, n)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || string(got["name"]) != `"a"` || string(got["storage"]) != "42" || got["theme"] == nil {
		t.Errorf("With = %s", b)
	}
	if b, _ := With([]byte(`{"name":"a"}`), nil, n); string(b) != `{"name":"a"}` {
		t.Errorf("With no extra = %s", b)
	}
}
