package apidoc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type opaqueJSON struct{}

func (opaqueJSON) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type describedJSON struct{}

func (describedJSON) MarshalJSON() ([]byte, error)  { return []byte(`1`), nil }
func (describedJSON) OpenAPISchema() map[string]any { return map[string]any{"type": "integer"} }

type sample struct {
	Name     string          `json:"name"`
	Count    int             `json:"count,omitempty"`
	When     time.Time       `json:"when"`
	Maybe    *bool           `json:"maybe"`
	Raw      json.RawMessage `json:"raw"`
	Tags     []string        `json:"tags,omitzero"`
	Said     describedJSON   `json:"said"`
	Hidden   string          `json:"-"`
	embedded `json:""`
}

type embedded struct {
	Inner string `json:"inner"`
}

func TestOfReadsWhatEncodingJSONWrites(t *testing.T) {
	s := Of(sample{})
	props := s["properties"].(Schema)
	want := map[string]string{"name": "string", "count": "integer", "when": "string", "maybe": "boolean",
		"tags": "array", "said": "integer", "inner": "string"}
	for name, typ := range want {
		p, ok := props[name].(Schema)
		if !ok || p["type"] != typ {
			t.Errorf("property %s: %v, want type %s", name, props[name], typ)
		}
	}
	if len(props) != len(want)+1 { // + raw, any JSON value
		t.Errorf("properties %v: want exactly %d", props, len(want)+1)
	}
	if props["maybe"].(Schema)["nullable"] != true || s["additionalProperties"] != false {
		t.Errorf("a pointer is nullable and an object closed: %v", s)
	}
	if got := strings.Join(s["required"].([]string), ","); got != "name,when,maybe,raw,said,inner" {
		t.Errorf("required %s", got)
	}
}

func TestBuildRefusesAnAnswerWhoseMarshalJSONSaysNothing(t *testing.T) {
	if _, err := Build(Input{Shapes: Shapes{"Opaque": struct {
		V opaqueJSON `json:"v"`
	}{}}}); err == nil || !strings.Contains(err.Error(), "OpenAPISchema") {
		t.Fatalf("Build: %v, want a refusal naming OpenAPISchema", err)
	}
}

type kind string

func (kind) OpenAPISchema() map[string]any {
	return map[string]any{"type": "string", "enum": []string{"a", "b"}}
}

// TestNamedDescribersAreReferredTo: a shape whose type says its own schema
// is a component of its own, and the shapes that hold one refer to it.
func TestNamedDescribersAreReferredTo(t *testing.T) {
	named := map[reflect.Type]string{reflect.TypeFor[kind](): "Kind"}
	if s, _ := describe(kind(""), named); s["enum"] == nil {
		t.Errorf("Kind = %v, want its enum", s)
	}
	s, _ := describe(struct {
		K kind   `json:"k"`
		L []kind `json:"l"`
	}{}, named)
	b, _ := json.Marshal(s)
	if strings.Count(string(b), `"$ref":"#/components/schemas/Kind"`) != 2 || strings.Contains(string(b), `"enum"`) {
		t.Errorf("Thing = %s, want two references to Kind", b)
	}
}

// TestRefineRefusesWhatIsNotThere: a refinement of a shape or a property
// that is not there is an error, so that a renamed field cannot leave its
// enum behind; a $ref replaces the property's schema.
func TestRefineRefusesWhatIsNotThere(t *testing.T) {
	schemas := func() map[string]any {
		return map[string]any{"Thing": Schema{"type": "object", "properties": Schema{"k": Schema{"type": "string"}}}}
	}
	for _, bad := range []map[string]map[string]Schema{
		{"Nothing": {"k": {"enum": []string{"a"}}}},
		{"Thing": {"renamed": {"enum": []string{"a"}}}},
	} {
		if err := refine(schemas(), bad); err == nil {
			t.Errorf("refine(%v) = nil, want an error", bad)
		}
	}
	s := schemas()
	if err := refine(s, map[string]map[string]Schema{"Thing": {"k": {"$ref": "#/components/schemas/Kind"}}}); err != nil {
		t.Fatal(err)
	}
	if k := s["Thing"].(Schema)["properties"].(Schema)["k"].(Schema); len(k) != 1 || k["$ref"] == nil {
		t.Errorf("k = %v, want the $ref alone", k)
	}
}
