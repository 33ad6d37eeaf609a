package apidoc

import (
	"strings"
	"testing"
)

// readTime is a request field read by its own UnmarshalJSON from a scalar,
// with no exported field: as a struct it would read as an object without
// properties (what the Send times were described as).
type readTime struct{ n int64 }

func (r *readTime) UnmarshalJSON(b []byte) error { r.n = int64(len(b)); return nil }

// TestBuildRefusesARequestWhoseUnmarshalJSONSaysNothing: a request shape
// holding a type that reads its own JSON, without an OpenAPISchema, is
// refused, where it was described as {"type":"object","properties":{}}.
func TestBuildRefusesARequestWhoseUnmarshalJSONSaysNothing(t *testing.T) {
	_, err := Build(Input{Shapes: Shapes{"SendDefinition": struct {
		At readTime `json:"at"`
	}{}}})
	if err == nil || !strings.Contains(err.Error(), "OpenAPISchema") || !strings.Contains(err.Error(), "readTime") {
		t.Fatalf("Build: %v, want a refusal naming readTime and OpenAPISchema", err)
	}
}

// TestRefineFollowsADottedPath: a refinement reaches a property of a
// nested object and of an array's items; a path that is not there is an
// error.
func TestRefineFollowsADottedPath(t *testing.T) {
	s := map[string]any{"Thing": Of(struct {
		Case *struct {
			Signers []struct {
				Days int `json:"days"`
			} `json:"signers"`
		} `json:"case"`
	}{})}
	if err := refine(s, map[string]map[string]Schema{"Thing": {"case.signers.days": {"description": "Days."}}}); err != nil {
		t.Fatal(err)
	}
	days, _ := propertyAt(s["Thing"].(Schema), "case.signers.days")
	if days["description"] != "Days." || days["type"] != "integer" {
		t.Errorf("days = %v, want the integer with its description", days)
	}
	for _, bad := range []string{"case.signers.weeks", "case.days.signers", "signers.days"} {
		if err := refine(s, map[string]map[string]Schema{"Thing": {bad: {"description": "x"}}}); err == nil {
			t.Errorf("refine of %s = nil, want an error", bad)
		}
	}
}
