package vendorcheck

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrSwagger is wrapped by the errors of loading the connector's swagger and
// compiling its schemas.
var ErrSwagger = errors.New("vendorcheck: swagger")

// Swagger holds the vendor connector's Swagger 2.0 document, turned into a
// JSON Schema resource: every schema with "x-nullable": true also allows
// null, and the $refs to #/definitions resolve within it.
type Swagger struct {
	doc      map[string]any
	compiler *jsonschema.Compiler
}

// swaggerURL names the resource inside the compiler; nothing is fetched.
const swaggerURL = "https://vendorcheck.invalid/apiDefinition.swagger.json"

// LoadSwagger reads a Swagger 2.0 document.
func LoadSwagger(path string) (*Swagger, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSwagger, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: decode: %w", ErrSwagger, err)
	}
	doc, ok := v.(map[string]any)
	if !ok || doc["swagger"] != "2.0" {
		return nil, fmt.Errorf("%w: %s is not a Swagger 2.0 document", ErrSwagger, path)
	}
	defs, ok := doc["definitions"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: no definitions", ErrSwagger)
	}
	// The resource the compiler sees: the definitions, under a draft that
	// allows keywords beside $ref, with the response schemas of the
	// operations added under x-responses/<operationId>/<status> and their
	// body schemas under x-requests/<operationId>.
	res := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"definitions": nullable(defs),
	}
	responses, requests := map[string]any{}, map[string]any{}
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range paths {
		ops, _ := p.(map[string]any)
		for _, o := range ops {
			op, _ := o.(map[string]any)
			id, _ := op["operationId"].(string)
			if body := bodySchema(op); id != "" && body != nil {
				requests[id] = nullable(body)
			}
			rs, _ := op["responses"].(map[string]any)
			if id == "" || rs == nil {
				continue
			}
			byStatus := map[string]any{}
			for status, r := range rs {
				if schema, ok := r.(map[string]any)["schema"]; ok {
					byStatus[status] = nullable(schema)
				}
			}
			responses[id] = byStatus
		}
	}
	res["x-responses"] = responses
	res["x-requests"] = requests
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(swaggerURL, res); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSwagger, err)
	}
	return &Swagger{doc: doc, compiler: c}, nil
}

// ResponseSchema compiles the schema the swagger gives for the answer with
// the given status of the operation operationID.
func (s *Swagger) ResponseSchema(operationID, status string) (*jsonschema.Schema, error) {
	sch, err := s.compiler.Compile(swaggerURL + "#/x-responses/" + operationID + "/" + status)
	if err != nil {
		return nil, fmt.Errorf("%w: response %s of %s: %w", ErrSwagger, status, operationID, err)
	}
	return sch, nil
}

// RequestSchema compiles the schema the swagger gives for the JSON body of
// the operation operationID.
func (s *Swagger) RequestSchema(operationID string) (*jsonschema.Schema, error) {
	sch, err := s.compiler.Compile(swaggerURL + "#/x-requests/" + operationID)
	if err != nil {
		return nil, fmt.Errorf("%w: request of %s: %w", ErrSwagger, operationID, err)
	}
	return sch, nil
}

// bodySchema answers the schema of an operation's "in": "body" parameter,
// or nil.
func bodySchema(op map[string]any) any {
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		if pm, _ := p.(map[string]any); pm["in"] == "body" {
			return pm["schema"]
		}
	}
	return nil
}

// Validate checks a JSON answer (or request body) against a schema.
func Validate(sch *jsonschema.Schema, body []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: answer is not JSON: %w", ErrSwagger, err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("%w: %w", ErrSwagger, err)
	}
	return nil
}

// nullable copies a Swagger schema, turning "x-nullable": true beside a
// "type" into a type list that also allows null (Swagger 2.0 has no null
// type; the vendor marks nullable properties with the x-nullable extension).
func nullable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = nullable(e)
		}
		if x["x-nullable"] == true {
			switch t := x["type"].(type) {
			case string:
				out["type"] = []any{t, "null"}
			case nil:
				out = map[string]any{"anyOf": []any{out, map[string]any{"type": "null"}}}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = nullable(e)
		}
		return out
	}
	return v
}
