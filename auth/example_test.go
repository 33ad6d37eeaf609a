package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"time"

	"github.com/signkit/signkit-go/auth"
)

var exampleCreds = auth.Credentials{
	ClientID: "client-id", ClientSecret: "client-secret",
	APIKey: "api-key", APISecret: "api-secret",
}

// loginService is a small stand-in of the platform's token endpoint,
// POST {Auth}/oauth/token, in the platform's shapes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication):
// it checks the API Keys Grant and its digest, and issues tok-1, tok-2, ...
// for ten minutes.
func loginService() *httptest.Server {
	var issued atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			GrantType    string `json:"grant_type"`
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
			Key          string `json:"key"`
			Nonce        string `json:"nonce"`
			CreatedAt    string `json:"created_at"`
			Digest       string `json:"digest"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		nonce, err := base64.StdEncoding.DecodeString(req.Nonce)
		if err != nil || req.GrantType != "api_keys" || req.ClientID != exampleCreds.ClientID ||
			req.ClientSecret != exampleCreds.ClientSecret || req.Key != exampleCreds.APIKey ||
			req.Digest != auth.Digest(nonce, req.CreatedAt, exampleCreds.APISecret) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"access_token": fmt.Sprintf("tok-%d", issued.Add(1)), "token_type": "Bearer", "expires_in": 600,
		})
	})
	return httptest.NewServer(mux)
}

// A TokenSource obtains a token with the API Keys Grant, answers it from
// its cache until shortly before it expires, and fetches another once a
// service refused it (Invalidate). Here it asks a small stand-in of the
// login service; in real code authURL is signkit.Sandbox.Auth or
// signkit.Production.Auth, and signkit.NewClient builds the TokenSource itself
// from Config.Credentials.
func ExampleNewTokenSource() {
	srv := loginService()
	defer srv.Close()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ts := auth.NewTokenSource(srv.URL, exampleCreds,
		auth.WithClock(func() time.Time { return now })) // omit: time.Now
	ctx := context.Background()

	tok, err := ts.Token(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tok.AccessToken, "expires at", tok.ExpiresAt.Format(time.TimeOnly))

	again, _ := ts.Token(ctx) // cached: no token request
	fmt.Println(again.AccessToken)

	ts.Invalidate(again) // a service answered 401 to it
	fresh, _ := ts.Token(ctx)
	fmt.Println(fresh.AccessToken)
	// Output:
	// tok-1 expires at 10:10:00
	// tok-1
	// tok-2
}

// Printing or logging credentials, a token or a TokenSource never shows a
// secret or the access token; the client id and the API key still show.
func ExampleCredentials() {
	fmt.Println(exampleCreds)
	tok := auth.Token{AccessToken: "tok-1", ExpiresAt: time.Date(2026, 11, 22, 10, 10, 0, 0, time.UTC)}
	fmt.Printf("%v\n", tok)

	// slog too, JSON included (the time attribute is dropped to keep the output stable).
	logger := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	logger.Info("login", "credentials", exampleCreds)
	// Output:
	// auth.Credentials{ClientID:"client-id", ClientSecret:[redacted], APIKey:"api-key", APISecret:[redacted]}
	// auth.Token{AccessToken:[redacted], ExpiresAt:2026-11-22T10:10:00Z}
	// {"level":"INFO","msg":"login","credentials":{"ClientID":"client-id","ClientSecret":"[redacted]","APIKey":"api-key","APISecret":"[redacted]"}}
}

// MissingFields names what a configuration left empty, to check it at start.
func ExampleCredentials_MissingFields() {
	c := auth.Credentials{ClientID: "client-id", APIKey: "api-key"}
	fmt.Println(c.MissingFields())
	// Output:
	// [ClientSecret APISecret]
}
