package readme_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// platformConfig is the README's configuration for the platform (compiled,
// not run: it needs an account).
func platformConfig() signkit.Config {
	cfg := signkit.Config{
		Endpoints: signkit.Sandbox, // or signkit.Production, or signkit.LocalEndpoints(mockURL)
		Credentials: auth.Credentials{
			ClientID: os.Getenv("SIGNKIT_CLIENT_ID"), ClientSecret: os.Getenv("SIGNKIT_CLIENT_SECRET"),
			APIKey: os.Getenv("SIGNKIT_API_KEY"), APISecret: os.Getenv("SIGNKIT_API_SECRET"),
		},
	}
	return cfg
}

// usage is the README's usage snippet.
func usage(ctx context.Context, cfg signkit.Config) error {
	client, err := signkit.NewClient(cfg) // one per account, safe for concurrent use
	if err != nil {
		return err
	}
	form, err := client.Forms.Create(ctx, &forms.Form{
		Name: "Onboarding",
		Sections: []forms.Section{{Title: "You", Fields: []forms.Field{
			{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
			{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
		}}},
	})
	if err != nil {
		return err
	}
	if form, err = client.Forms.Publish(ctx, form.ExternalID); err != nil {
		return err
	}
	link, err := client.Forms.CreateRequestFor(ctx, form, &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{"email": {Value: "ada@example.com"}}, // locked
	})
	if err != nil {
		return err
	}
	fmt.Println("form", form.Status, "- prefilled link ready:", link.RequestURL != "")
	subs, err := client.Forms.ListSubmissions(ctx, form.ExternalID, nil)
	fmt.Println("submissions so far:", len(subs))
	return err
}

// mockConfig is a config for a mock server in process, without sockets.
func mockConfig(mock *mockserver.Server) signkit.Config {
	cfg := mock.Config()
	cfg.HTTPClient = &http.Client{Transport: mock.Transport()}
	return cfg
}

// Example runs the README's usage snippet against the mock server.
func Example() {
	mock := mockserver.New()
	defer mock.Close()
	if err := usage(context.Background(), mockConfig(mock)); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// form ACTIVE - prefilled link ready: true
	// submissions so far: 0
}

// explain is the README's error handling.
func explain(err error) {
	var apiErr *signkit.Error
	var invalid *signkit.ValidationError
	switch {
	case errors.Is(err, signkit.ErrNotFound): // 404
		fmt.Println("not found")
	case errors.As(err, &invalid): // refused before sending: nothing was sent
		for _, p := range invalid.Problems {
			fmt.Println(p.Field, p.Message)
		}
	case errors.As(err, &apiErr): // answered by the service
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.Message)
		for _, d := range apiErr.Details {
			fmt.Println(d.Field, d.Message)
		}
	}
}

// Example_errors shows the README's error handling on two failures.
func Example_errors() {
	mock := mockserver.New()
	defer mock.Close()
	client, err := signkit.NewClient(mockConfig(mock))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_, err = client.Forms.Get(ctx, "no-such-form")
	explain(err)
	_, err = client.Forms.Create(ctx, &forms.Form{Name: "Bad", Sections: []forms.Section{{Fields: []forms.Field{
		{Name: "email", Type: forms.TypeText, MapTo: "primarySigner.email"},
	}}}})
	explain(err)
	// Output:
	// not found
	// sections[0].fields[0].type must be EMAIL for a field mapped to "primarySigner.email", not "TEXT"
}
