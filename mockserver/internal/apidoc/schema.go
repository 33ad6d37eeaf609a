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

// Describer is a type that says what its JSON is: OpenAPISchema answers
// its schema. A type with its own MarshalJSON or UnmarshalJSON must be
// one; a named string
// type of a closed set of values or of a format is one to say so (an
// enum, a pattern), which its Go type cannot.
type Describer interface {
	OpenAPISchema() map[string]any
}

// Open is a struct type whose JSON object holds, beside its fields, members it
// does not model, kept and given back as sent (the forms service's forms,
// sections and fields,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// Its schema is read from its fields like any struct's and admits other
// properties; its own MarshalJSON, which writes those members, does not make it
// opaque.
type Open interface {
	OpenAPIOpen()
}

var (
	openType        = reflect.TypeFor[Open]()
	describerType   = reflect.TypeFor[Describer]()
	timeType        = reflect.TypeFor[time.Time]()
	rawType         = reflect.TypeFor[json.RawMessage]()
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextMarshaler]()
)

// Of answers the schema of the JSON encoding/json writes for v's type: an
// object lists every field by its JSON name, a field without omitempty or
// omitzero is required, a pointer may be null, and an object admits no
// other property (but an Open struct). A time.Time is an RFC 3339 string,
// a json.RawMessage any JSON value, and a type with an OpenAPISchema method
// (Describer) what it says.
func Of(v any) Schema {
	s, _ := describe(v, nil)
	return s
}

// walker reads the schemas of Go types.
type walker struct {
	// opaque are the types met with their own MarshalJSON or
	// UnmarshalJSON that do not say what they write or read: their schema
	// is any JSON value, which checks nothing, so Build refuses them.
	opaque []string
	// named are the Describer types that are component schemas of their
	// own: where another shape holds one, its schema refers to the
	// component (one enum type for a generated client, not one per use).
	named map[reflect.Type]string
}

// describe is Of with the components named, and also answers the opaque
// types met.
func describe(v any, named map[reflect.Type]string) (Schema, []string) {
	w := &walker{named: named}
	t := reflect.TypeOf(v)
	if t.Implements(describerType) {
		return reflect.Zero(t).Interface().(Describer).OpenAPISchema(), nil // the component itself
	}
	return w.of(t), w.opaque
}

func (w *walker) of(t reflect.Type) Schema {
	if name, ok := w.named[t]; ok {
		return ref(name)
	}
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	case t.Kind() != reflect.Pointer && t.Implements(describerType):
		return reflect.Zero(t).Interface().(Describer).OpenAPISchema()
	case t.Kind() == reflect.Struct && t.Implements(openType):
		s := w.object(t)
		s["additionalProperties"] = true
		return s
	case t.Kind() != reflect.Pointer && (t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) ||
		reflect.PointerTo(t).Implements(unmarshalerType)):
		// Its JSON is what its own methods write or read, not its fields:
		// a struct of unexported fields would read as an object without
		// properties, which no value it takes is.
		w.opaque = append(w.opaque, t.String())
		return Schema{}
	case t.Kind() != reflect.Pointer && t.Implements(textType):
		return Schema{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := w.of(t.Elem())
		if _, isRef := s["$ref"]; isRef {
			return Schema{"allOf": []Schema{s}, "nullable": true} // a $ref's siblings are ignored
		}
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
		return Schema{"type": "array", "items": w.of(t.Elem())}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": w.of(t.Elem())}
	case reflect.Struct:
		return w.object(t)
	}
	return Schema{} // interfaces: any JSON value
}

// object answers the schema of a struct: its JSON fields, with embedded
// structs' fields promoted as encoding/json promotes them.
func (w *walker) object(t reflect.Type) Schema {
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
			props[name] = w.of(f.Type)
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
