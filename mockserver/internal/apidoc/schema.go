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

var (
	timeType      = reflect.TypeFor[time.Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// Of answers the schema of the JSON encoding/json writes for v's type: an
// object lists every field by its JSON name, a field without omitempty or
// omitzero is required, a pointer may be null, and an object admits no
// other property. A type with its own MarshalJSON is described as any JSON
// value, unless it is a time.Time (an RFC 3339 string).
func Of(v any) Schema {
	return of(reflect.TypeOf(v))
}

func of(t reflect.Type) Schema {
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	case t.Kind() != reflect.Pointer && (t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType)):
		return Schema{}
	case t.Kind() != reflect.Pointer && t.Implements(textType):
		return Schema{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := of(t.Elem())
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
		return Schema{"type": "array", "items": of(t.Elem())}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": of(t.Elem())}
	case reflect.Struct:
		return object(t)
	}
	return Schema{} // interfaces: any JSON value
}

// object answers the schema of a struct: its JSON fields, with embedded
// structs' fields promoted as encoding/json promotes them.
func object(t reflect.Type) Schema {
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
			props[name] = of(f.Type)
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
