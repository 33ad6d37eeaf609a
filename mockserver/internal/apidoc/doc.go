// Package apidoc builds the mock's OpenAPI 3.0.3 description, served at GET
// /mock/openapi.json: every route of the services, the public pages and the
// control API, with the JSON shapes read from the Go types the handlers write
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
// A test runs the integration suites and validates every request and answer
// they exchange against it, so the description cannot drift from the mock.
package apidoc

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// Version is the OpenAPI version of the description: 3.0.3, the version
// the validator the tests pin (kin-openapi) checks in full.
const Version = "3.0.3"

// operation is one route of the mock as the description tells it.
type operation struct {
	method, path string
	tag          string // the service: Auth, Forms, Send, Signing, Webhooks, Public pages, Control
	summary      string
	auth         bool    // needs a token
	scheme       string  // where the token goes when auth: a securitySchemes name; "": bearer
	pathParams   []param // what a path wildcard is, where more than a string: by name
	query        []param // query parameters
	header       []param // header parameters
	callbacks    bool    // the route makes the mock post events to the endpoint in its body
	body         Schema  // the request body's content map (media type → media object); nil: none
	bodyOptional bool    // the body may be left out
	answers      Schema  // status → response object, besides the default error
	htmlErrors   bool    // errors may be HTML pages (pages a person's browser opens)
}

// param is a query or header parameter.
type param struct {
	name   string
	schema Schema
	desc   string
}

// requestShapes are the shapes that are request bodies: described loose
// (see loose).
var requestShapes = []string{"FormDefinition", "PrefillV1", "PrefillV2", "SendDefinition", "SendDefinitionBase64",
	"SubscriptionRequest", "UserSpec", "TokenRequest", "FaultSpec", "SigningRequestUpdate"}

// sendScheme is the security scheme of the Send service's routes, which take
// the token in X-Auth-Token
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const sendScheme = "xAuthToken"

var wildcard = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// Input is what the services give the description: their shapes, what
// it says of them beyond their Go types, and the event types.
type Input struct {
	Shapes Shapes
	// Refine adds schema keywords to properties of shapes: shape name →
	// property (a name, or a dotted path through nested objects and
	// arrays' items) → keywords (an enum, a pattern, a $ref that replaces "any
	// JSON value"). A shape or property that is not there is an error, so
	// a rename cannot leave a refinement behind.
	Refine map[string]map[string]Schema
	// Events are the event types, in the order subscriptions list them: each
	// gets a component schema of its body (EventBody,
	// https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md).
	Events []Event
}

// Event is an event type and its body.
type Event struct {
	Type             string // the X-Event-Type
	Topic, EventType string // the body's topic and eventType
	Payload          string // the payload's component schema; "": a string
	Status           int    // the status the payload always carries; -1: any
	Description      string // when it is emitted
}

// Build answers the description as JSON, with the shapes as its component
// schemas besides the hand-made ones of answers the handlers build from
// maps, and the bodies of the events. A shape that an operation names but
// nobody gives is an error.
func Build(in Input) ([]byte, error) {
	shapes := in.Shapes
	schemas := handMade()
	named := map[reflect.Type]string{}
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		if t := reflect.TypeOf(shapes[name]); t.Implements(describerType) {
			if other, dup := named[t]; dup {
				return nil, fmt.Errorf("apidoc: shapes %s and %s are the same type, which says its own schema", other, name)
			}
			named[t] = name
		}
	}
	for name, v := range shapes {
		if _, dup := schemas[name]; dup {
			return nil, fmt.Errorf("apidoc: shape %s is given twice", name)
		}
		s, opaque := describe(v, named)
		if len(opaque) > 0 {
			return nil, fmt.Errorf("apidoc: shape %s holds %v, whose own MarshalJSON or UnmarshalJSON does not say "+
				"what it writes or reads (give the type an OpenAPISchema method)", name, opaque)
		}
		if slices.Contains(requestShapes, name) {
			s = loose(s)
		}
		schemas[name] = s
	}
	if err := refine(schemas, in.Refine); err != nil {
		return nil, err
	}
	if err := eventSchemas(schemas, in.Events); err != nil {
		return nil, err
	}
	paths := map[string]Schema{}
	for _, op := range operations() {
		item := paths[op.path]
		if item == nil {
			item = Schema{}
			paths[op.path] = item
		}
		m := strings.ToLower(op.method)
		if _, dup := item[m]; dup {
			return nil, fmt.Errorf("apidoc: %s %s is described twice", op.method, op.path)
		}
		item[m] = op.object()
	}
	doc := Schema{
		"openapi": Version,
		"info": Schema{
			"title":   "signkit-mock",
			"version": "1",
			"description": "The routes the signkit mock server implements: the platform's five services " +
				"(Auth, Forms, Send, Signing, Webhooks) under signkit.LocalEndpoints, the public pages, " +
				"and the mock-only control API under /mock/, which the platform does not have.",
		},
		"servers": []Schema{{"url": "/"}},
		"paths":   paths,
		"components": Schema{
			"schemas":   schemas,
			"callbacks": Schema{deliveryCallback: eventDelivery()},
			"securitySchemes": Schema{
				"bearer": Schema{"type": "http", "scheme": "bearer",
					"description": "An access token of the API Keys Grant (POST /auth/oauth/token), or of POST /mock/token."},
				sendScheme: Schema{"type": "apiKey", "in": "header", "name": "X-Auth-Token",
					"description": "The Send service's placement of the same access token: X-Auth-Token: <token>. " +
						"A Bearer header is not read there."},
			},
		},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("apidoc: %w", err)
	}
	for _, name := range refs(b) {
		if _, ok := schemas[name]; !ok {
			return nil, fmt.Errorf("apidoc: schema %s is named but not given", name)
		}
	}
	return b, nil
}

// refine adds the keywords of refinements to the properties of the
// shapes' schemas.
func refine(schemas map[string]any, refinements map[string]map[string]Schema) error {
	for shape, props := range refinements {
		s, ok := schemas[shape].(Schema)
		if !ok {
			return fmt.Errorf("apidoc: refinement of shape %s, which is not given", shape)
		}
		for prop, keywords := range props {
			p, ok := propertyAt(s, prop)
			if !ok {
				return fmt.Errorf("apidoc: refinement of %s.%s, which %s does not have", shape, prop, shape)
			}
			if _, isRef := keywords["$ref"]; isRef {
				clear(p) // a $ref's siblings are ignored: it replaces what was there
			}
			maps.Copy(p, keywords)
		}
	}
	return nil
}

// propertyAt answers the schema of a property of s: a name, or a dotted
// path of names through nested objects, an array's step being its items
// (caseFile.signers.activeAt: activeAt of each signer).
func propertyAt(s Schema, path string) (Schema, bool) {
	for name := range strings.SplitSeq(path, ".") {
		for s["type"] == "array" {
			if s, _ = s["items"].(Schema); s == nil {
				return nil, false
			}
		}
		have, _ := s["properties"].(Schema)
		p, ok := have[name].(Schema)
		if !ok {
			return nil, false
		}
		s = p
	}
	return s, true
}

var refPattern = regexp.MustCompile(`"#/components/schemas/([A-Za-z0-9]+)"`)

// refs answers the component schemas the description refers to.
func refs(doc []byte) []string {
	var out []string
	for _, m := range refPattern.FindAllSubmatch(doc, -1) {
		out = append(out, string(m[1]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// object answers the OpenAPI operation object of op.
func (op operation) object() Schema {
	var params []Schema
	for _, m := range wildcard.FindAllStringSubmatch(op.path, -1) {
		p := Schema{"name": m[1], "in": "path", "required": true, "schema": Schema{"type": "string"}}
		if i := slices.IndexFunc(op.pathParams, func(pp param) bool { return pp.name == m[1] }); i >= 0 {
			p["schema"], p["description"] = op.pathParams[i].schema, op.pathParams[i].desc
		}
		params = append(params, p)
	}
	for _, p := range op.query {
		// An empty value means the default, as the handlers read it.
		params = append(params, Schema{"name": p.name, "in": "query", "schema": p.schema, "description": p.desc,
			"allowEmptyValue": true})
	}
	for _, p := range op.header {
		params = append(params, Schema{"name": p.name, "in": "header", "schema": p.schema, "description": p.desc})
	}
	responses := maps.Clone(op.answers)
	if responses == nil {
		responses = Schema{}
	}
	errContent := jsonBody(ref("Error"))
	if op.htmlErrors {
		errContent["text/html"] = Schema{"schema": Schema{"type": "string"}}
	}
	responses["default"] = Schema{"description": "An error: the platform's error body " +
		"(an HTML page instead where a person's browser asked).", "content": errContent}
	o := Schema{
		"operationId": operationID(op.method, op.path),
		"summary":     op.summary,
		"tags":        []string{op.tag},
		"responses":   responses,
		"security":    []Schema{},
	}
	if op.auth {
		o["security"] = []Schema{{cmp.Or(op.scheme, "bearer"): []string{}}}
	}
	if len(params) > 0 {
		o["parameters"] = params
	}
	if op.body != nil {
		o["requestBody"] = Schema{"required": !op.bodyOptional, "content": op.body}
	}
	if op.callbacks {
		o["callbacks"] = callbacks()
	}
	return o
}

// operationID derives a unique id from the method and the path.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '.' }) {
		part = strings.Trim(part, "{}")
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// ref refers to a component schema.
func ref(name string) Schema { return Schema{"$ref": "#/components/schemas/" + name} }

// jsonBody is a content map of one JSON media type.
func jsonBody(s Schema) Schema { return Schema{"application/json": Schema{"schema": s}} }

// answer is a response object with a description and an optional content map.
func answer(desc string, content Schema) Schema {
	r := Schema{"description": desc}
	if content != nil {
		r["content"] = content
	}
	return r
}

// ok answers a status with a JSON answer of schema s.
func ok(status, desc string, s Schema) Schema { return Schema{status: answer(desc, jsonBody(s))} }

// items is the {"items":[…]} list the control API answers.
func items(name string) Schema {
	return Schema{"type": "object", "required": []string{"items"}, "additionalProperties": false,
		"properties": Schema{"items": Schema{"type": "array", "items": ref(name)}}}
}

// obj is a hand-made object schema: every property required unless named
// in optional, no other property.
func obj(props Schema, optional ...string) Schema {
	var req []string
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if !slices.Contains(optional, name) {
			req = append(req, name)
		}
	}
	s := Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(req) > 0 {
		s["required"] = req
	}
	return s
}

// loose is a request body's schema: the types of s, with no property
// required and any other property allowed; the handler, not the
// description, says which are missing (with a 422 that names them).
func loose(s Schema) Schema {
	out := Schema{}
	for k, v := range s {
		switch k {
		case "required": // dropped
		case "additionalProperties": // kept only as a map's value schema
			if sub, isSchema := v.(Schema); isSchema {
				out[k] = loose(sub)
			}
		case "properties":
			props := Schema{}
			for name, p := range v.(Schema) {
				props[name] = loose(p.(Schema))
			}
			out[k] = props
		case "items":
			out[k] = loose(v.(Schema))
		default:
			out[k] = v
		}
	}
	if out["type"] != nil {
		out["nullable"] = true
	}
	return out
}

var (
	str     = Schema{"type": "string"}
	integer = Schema{"type": "integer"}
	boolean = Schema{"type": "boolean"}
	binary  = Schema{"type": "string", "format": "binary"}
	html    = Schema{"text/html": Schema{"schema": str}}
)
