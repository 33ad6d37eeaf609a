package apidoc

import (
	"encoding/json"
	"testing"
)

// openJSON keeps members it does not model, as the forms service's forms do.
type openJSON struct {
	Name  string                     `json:"name"`
	Extra map[string]json.RawMessage `json:"-"`
}

func (openJSON) OpenAPIOpen() {}

func (o openJSON) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]any{"name": o.Name}) }

// TestOpenStructAdmitsOtherProperties: an Open struct is described by its
// fields, admits other properties, and its MarshalJSON does not make it
// opaque (which Build refuses); a struct beside it stays closed.
func TestOpenStructAdmitsOtherProperties(t *testing.T) {
	s := Of(struct {
		Open   openJSON   `json:"open"`
		List   []openJSON `json:"list"`
		Closed embedded   `json:"closed"`
	}{})
	props := s["properties"].(Schema)
	open := props["open"].(Schema)
	if open["additionalProperties"] != true || open["properties"].(Schema)["name"].(Schema)["type"] != "string" {
		t.Errorf("open: %v, want its fields and any other property", open)
	}
	if _, hidden := open["properties"].(Schema)["Extra"]; hidden {
		t.Errorf("open: %v describes its json:\"-\" field", open)
	}
	if items := props["list"].(Schema)["items"].(Schema); items["additionalProperties"] != true {
		t.Errorf("list items: %v, want open", items)
	}
	if s["additionalProperties"] != false || props["closed"].(Schema)["additionalProperties"] != false {
		t.Errorf("a struct that is not Open stays closed: %v", s)
	}
	if _, opaque := describe(struct {
		V []openJSON `json:"v"`
	}{}, nil); len(opaque) > 0 {
		t.Errorf("opaque %v: an Open struct says what it writes", opaque)
	}
}
