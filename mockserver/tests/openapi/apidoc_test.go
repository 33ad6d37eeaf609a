package openapi_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver/internal/app"
)

// load builds the mock's description and loads it with kin-openapi,
// failing the test when it is not valid OpenAPI.
func load(t *testing.T) (*openapi3.T, []byte) {
	t.Helper()
	a := app.New(app.Config{Control: true, JournalSize: 16, MaxBodyBytes: 1 << 20})
	t.Cleanup(a.Close)
	raw, err := a.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the description is not valid OpenAPI %s: %v", doc.OpenAPI, err)
	}
	return doc, raw
}

func TestDescriptionIsValidOpenAPI(t *testing.T) {
	doc, raw := load(t)
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", doc.OpenAPI)
	}
	var generic map[string]any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	// Every component schema is used: a shape nobody refers to is a
	// leftover of a route that is gone.
	for name := range doc.Components.Schemas {
		if !strings.Contains(string(raw), `"#/components/schemas/`+name+`"`) {
			t.Errorf("component schema %s is not used", name)
		}
	}
}

// TestDescriptionCoversEveryRoute compares the route table with the
// description both ways: each route is described once, and nothing is
// described that the mock does not serve.
func TestDescriptionCoversEveryRoute(t *testing.T) {
	doc, _ := load(t)
	a := app.New(app.Config{Control: true, JournalSize: 16, MaxBodyBytes: 1 << 20})
	t.Cleanup(a.Close)
	routes := slices.Clone(a.Patterns)
	var described []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			described = append(described, method+" "+path)
		}
	}
	slices.Sort(routes)
	slices.Sort(described)
	if len(routes) < 60 {
		t.Fatalf("only %d routes: the table was not read", len(routes))
	}
	for _, r := range routes {
		if _, found := slices.BinarySearch(described, r); !found {
			t.Errorf("route %s is not described", r)
		}
	}
	for _, d := range described {
		if _, found := slices.BinarySearch(routes, d); !found {
			t.Errorf("%s is described but not a route", d)
		}
	}
	if c := slices.Compact(slices.Clone(routes)); len(c) != len(routes) {
		t.Errorf("a route appears twice in the table")
	}
}
