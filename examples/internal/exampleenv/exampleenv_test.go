package exampleenv

import (
	"strings"
	"testing"
)

func TestSetup(t *testing.T) {
	all := map[string]string{EnvClientID: "c", EnvClientSecret: "cs", EnvAPIKey: "k", EnvAPISecret: "s"}
	with := func(extra map[string]string, creds bool) func(string) string {
		return func(k string) string {
			if v, ok := extra[k]; ok {
				return v
			}
			if creds {
				return all[k]
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name    string
		env     func(string) string
		want    string // Env.Name, or "" for an error
		errHas  string
		noLeaks bool
	}{
		{"nothing set: the mock", with(nil, false), "mock", "", false},
		{"SIGNKIT_ENV=mock with credentials", with(map[string]string{EnvEnvironment: "Mock"}, true), "mock", "", false},
		{"credentials: sandbox by default", with(nil, true), "sandbox", "", false},
		{"production", with(map[string]string{EnvEnvironment: "production"}, true), "production", "", false},
		{"a bad SIGNKIT_ENV is refused with the valid values", with(map[string]string{EnvEnvironment: "staging"}, false), "",
			"SIGNKIT_ENV must be one of mock, sandbox, production", false},
		{"sandbox without credentials names them", with(map[string]string{EnvEnvironment: "sandbox"}, false), "",
			"missing: SIGNKIT_CLIENT_ID", false},
		{"some credentials", with(map[string]string{EnvClientID: "c"}, false), "", "missing: SIGNKIT_CLIENT_SECRET", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Setup(tc.env)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("Setup: %v, want an error with %q", err, tc.errHas)
				}
				if strings.Contains(err.Error(), "cs") && tc.noLeaks {
					t.Fatalf("the error holds a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if e.Name != tc.want || e.IsMock() != (tc.want == "mock") {
				t.Fatalf("Setup chose %s (mock %v), want %s", e.Name, e.IsMock(), tc.want)
			}
		})
	}
}
