package auth

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/signkit/signkit-go/internal/redact"
)

// Credentials are what an account needs to obtain access tokens with the API
// Keys Grant: an OAuth client (ClientID, ClientSecret) and an API key with its
// secret. Secrets are never printed or logged: String, GoString, Format and
// LogValue redact them.
type Credentials struct {
	ClientID     string
	ClientSecret string
	APIKey       string
	APISecret    string
}

// String describes the credentials without their secrets.
func (c Credentials) String() string {
	return fmt.Sprintf("auth.Credentials{ClientID:%q, ClientSecret:%s, APIKey:%q, APISecret:%s}",
		c.ClientID, redact.Quoted(c.ClientSecret), c.APIKey, redact.Quoted(c.APISecret))
}

// GoString is String, so that %#v does not print secrets either.
func (c Credentials) GoString() string { return c.String() }

// MissingFields names the fields that are empty, in declaration order.
func (c Credentials) MissingFields() []string {
	var missing []string
	for _, f := range []struct{ name, value string }{
		{"ClientID", c.ClientID}, {"ClientSecret", c.ClientSecret},
		{"APIKey", c.APIKey}, {"APISecret", c.APISecret},
	} {
		if f.value == "" {
			missing = append(missing, f.name)
		}
	}
	return missing
}

// Token is an access token and the moment it stops being accepted, as the
// TokenSource takes it: the login service's expires_in clamped to
// [MinTokenLifetime, MaxTokenLifetime]. Printing or logging a Token never
// shows the access token (see Format and LogValue).
type Token struct {
	AccessToken string
	ExpiresAt   time.Time
}

// String describes the token without revealing it.
func (t Token) String() string {
	return fmt.Sprintf("auth.Token{AccessToken:%s, ExpiresAt:%s}", redact.Quoted(t.AccessToken), t.ExpiresAt.Format(time.RFC3339))
}

// GoString is String, so that %#v does not print the token either.
func (t Token) GoString() string { return t.String() }

// Digest computes the API Keys Grant digest: base64 (standard encoding) of
// SHA-1 over the raw nonce bytes, then created_at, then the API secret.
func Digest(nonce []byte, createdAt, apiSecret string) string {
	h := sha1.New()
	h.Write(nonce)
	h.Write([]byte(createdAt))
	h.Write([]byte(apiSecret))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
