package apidoc

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// Schema is an OpenAPI 3.0 schema object, as JSON.
type Schema = map[string]any

// Shapes names the Go values whose JSON the mock answers: each service
// package lists its own (APIShapes), and Build turns each into a component
// schema of that name, read from the type itself, so the description
// follows the code.
type Shapes map[string]any

// Describer is a type with its own MarshalJSON that says what it writes:
// OpenAPISchema answers the schema of its JSON.
type Describer interface {
	OpenAPISchema() map[string]any
}

var (
	describerType = reflect.TypeFor[Describer]()
	timeType      = reflect.TypeFor[time.Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// Of answers the schema of the JSON encoding/json writes for v's type: an
// object lists every field by its JSON name, a field without omitempty or
// omitzero is required, a pointer may be null, and an object admits no
// other property. A time.Time is an RFC 3339 string, a json.RawMessage any
// JSON value, and a type with its own MarshalJSON what its OpenAPISchema
// (Describer) says.
func Of(v any) Schema {
	s, _ := describe(v)
	return s
}

// describe is Of, and also answers the types with their own MarshalJSON
// that do not say what they write: their schema is any JSON value, which
// checks nothing, so Build refuses them.
func describe(v any) (Schema, []string) {
	var opaque []string
	return of(reflect.TypeOf(v), &opaque), opaque
}

func of(t reflect.Type, opaque *[]string) Schema {
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	case t.Kind() != reflect.Pointer && t.Implements(describerType):
		return reflect.Zero(t).Interface().(Describer).OpenAPISchema()
	case t.Kind() != reflect.Pointer && (t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)):
		*opaque = append(*opaque, t.String())
		return Schema{}
	case t.Kind() != reflect.Pointer && t.Implements(textType):
		return Schema{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := of(t.Elem(), opaque)
		s["nullable"] = true
		return s
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Schema{"type": "string", "format": "byte"}
		}
		return Schema{"type": "array", "items": of(t.Elem(), opaque)}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": of(t.Elem(), opaque)}
	case reflect.Struct:
		return object(t, opaque)
	}
	return Schema{} // interfaces: any JSON value
}

// object answers the schema of a struct: its JSON fields, with embedded
// structs' fields promoted as encoding/json promotes them.
func object(t reflect.Type, opaque *[]string) Schema {
	props := Schema{}
	var required []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			props[name] = of(f.Type, opaque)
			if !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	s := Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}
