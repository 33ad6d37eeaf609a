package vendorcheck

import (
	"errors"
	"testing"
)

func TestInCI(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{{"", false}, {"false", false}, {"0", false}, {"true", true}, {"1", true}, {"yes", true}}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Setenv("CI", tt.value)
			if got := InCI(); got != tt.want {
				t.Fatalf("InCI() with CI=%q = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

func TestMissingInputs(t *testing.T) {
	t.Setenv(EnvVendorDir, t.TempDir()) // no postman/ inside
	if _, err := VendorDir("/nowhere"); !errors.Is(err, ErrNotFound) {
		t.Errorf("VendorDir: err = %v, want ErrNotFound", err)
	}
	t.Setenv(EnvNewman, "/nowhere/newman")
	if _, err := NewmanBin("/nowhere"); !errors.Is(err, ErrNotFound) {
		t.Errorf("NewmanBin: err = %v, want ErrNotFound", err)
	}
}

func TestBaseVariables(t *testing.T) {
	collect := mustParse(t)
	collect.SetVariables(map[string]string{"signBaseUrl": "", "webhookEndpoint": ""})
	cred := Credentials{ClientID: "id", ClientSecret: "cs", APIKey: "k", APISecret: "as"}
	tests := []struct {
		name string
		col  *Collection
		want map[string]string
	}{
		{"sign/send layout", mustParse(t), map[string]string{"baseUrl": "http://m", "authUrl": "http://m/auth", "apiKey": "k", "webhookEndpoint": ""}},
		{"collect layout", collect, map[string]string{"baseUrl": "http://m/collect/api", "signBaseUrl": "http://m", "webhookEndpoint": "http://hook"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BaseVariables(tt.col, "http://m", cred, "http://hook")
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
