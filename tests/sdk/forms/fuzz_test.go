package forms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// FuzzFormValidate decodes arbitrary JSON into a Form and validates it:
// Validate never panics, refuses with a *ValidationError (ErrValidation),
// and a form it accepts is accepted by the mock server too (created, 201),
// but for the known divergences below; the mock never answers 5xx.
func FuzzFormValidate(f *testing.F) {
	// A fuzz run creates far more forms than a test: no limit on them.
	srv := mockserver.New(mockserver.WithLimits(mockserver.Limits{Forms: -1}))
	f.Cleanup(srv.Close)
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()}
	cfg.MaxRetries = -1
	client, err := signkit.NewClient(cfg)
	if err != nil {
		f.Fatal(err)
	}
	for _, fm := range []*forms.Form{
		{Name: "Empty"},
		{Name: "Mapped", Sections: []forms.Section{{Slug: "a", Fields: []forms.Field{
			{Name: "n", Type: forms.TypeText, MapTo: "primarySigner.name"},
			{Name: "e", Type: forms.TypeEmail, MapTo: "primarySigner.email", Required: true},
		}}}},
		{Name: "Choice", Sections: []forms.Section{
			{Slug: "a", Fields: []forms.Field{{Name: "k", Type: forms.TypeChoice, Options: []forms.Option{{Label: "A", Value: "a"}, {Label: "B", Value: "b"}}}}},
			{Slug: "b", Condition: forms.Equals("k", "a"), Fields: []forms.Field{
				{Name: "f", Type: forms.TypeFile}, {Name: "h", Type: forms.TypeHTML, Content: "<p>{{k}}</p>"}}},
		}},
	} {
		b, _ := json.Marshal(fm)
		f.Add(b)
	}
	f.Add([]byte(`{"name":"x","sections":[{"slug":"a","fields":[{"name":"e","type":"TEXT","mapTo":"primarySigner.email"}]}]}`))
	f.Add([]byte(`{"name":"x","sections":[{"slug":"a","fields":[{"name":"a","type":"TEXT","condition":{"rules":[{"field":"b","operator":"EQUALS","value":"1"}]}},{"name":"b","type":"TEXT"}]}]}`))
	f.Add([]byte(`{"name":"x","sections":[{"slug":"a","fields":[{"name":"n","type":"NUMBER","validations":{"min":5,"max":1}}]}]}`))
	f.Add([]byte(`{"name":"x","storageFolderId":42,"sections":[{"slug":"a","cols":2,"fields":[{"name":"cpr","type":"NIN","mask":"#"},{"name":"cvr","type":"BUSINESS_ID"}]}]}`))
	f.Add([]byte(`{"name":"x","caseFileTitleTemplate":"{{nope}}","sections":[{"slug":"a","fields":[{"name":"h","type":"HTML","content":"{{later}}"},{"name":"later","type":"TEXT"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var fm forms.Form
		if json.Unmarshal(body, &fm) != nil {
			return
		}
		fm.ExternalID, fm.Status, fm.PublicURL, fm.Version = "", "", "", 0 // output-only
		err := fm.Validate()
		if err != nil {
			var verr *forms.ValidationError
			if !errors.As(err, &verr) || !errors.Is(err, signkit.ErrValidation) {
				t.Fatalf("Validate refused %q with %v (%T), want a *forms.ValidationError", body, err, err)
			}
			return
		}
		created, err := client.Forms.Create(context.Background(), &fm)
		var apiErr *signkit.Error
		if errors.As(err, &apiErr) && apiErr.StatusCode >= 500 {
			t.Fatalf("the mock answered %d to a form Validate accepts: %q: %v", apiErr.StatusCode, body, err)
		}
		if err != nil {
			t.Fatalf("Validate accepts %q but the mock refuses it: %v", body, err)
		}
		if created.ExternalID == "" {
			t.Fatalf("created without an externalId: %q", body)
		}
	})
}
