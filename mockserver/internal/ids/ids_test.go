package ids

import (
	"regexp"
	"testing"
)

func TestIDs(t *testing.T) {
	t.Parallel()
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		u := UUID()
		if !uuid.MatchString(u) || seen[u] {
			t.Fatalf("UUID %q: malformed or repeated", u)
		}
		seen[u] = true
	}
	if h := Hex(32); len(h) != 64 || !regexp.MustCompile(`^[0-9a-f]+$`).MatchString(h) || h == Hex(32) {
		t.Fatalf("Hex(32) = %q", h)
	}
}
