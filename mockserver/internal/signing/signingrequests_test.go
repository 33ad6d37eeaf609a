package signing

import (
	"errors"
	"net/http"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

func srPtr[T any](v T) *T { return &v }

// An update's fields are checked as a Send signer's, every problem named.
func TestSigningRequestUpdateCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		u      SigningRequestUpdate
		fields []string
	}{
		{"empty", SigningRequestUpdate{}, nil},
		{"good", SigningRequestUpdate{Email: srPtr("a@example.com"), EmailText: srPtr("Dear A"), EmailFormat: srPtr("html"),
			SuccessURL: srPtr("https://example.com"), ReminderInterval: srPtr(1), InsecureSigningMethods: &[]string{"draw"}}, nil},
		{"email", SigningRequestUpdate{Email: srPtr("Ann <a@example.com>")}, []string{"email"}},
		{"empty email", SigningRequestUpdate{Email: srPtr("")}, []string{"email"}},
		{"texts", SigningRequestUpdate{EmailSubject: srPtr("Hi"), CompletedEmailText: srPtr("")}, []string{"emailSubject", "completedEmailText"}},
		{"urls", SigningRequestUpdate{SuccessURL: srPtr("/ok"), FailURL: srPtr("x://")}, []string{"successUrl", "failUrl"}},
		{"codes", SigningRequestUpdate{EmailFormat: srPtr("pdf"), ReminderInterval: srPtr(0), InsecureSigningMethods: &[]string{"text", "smoke"}},
			[]string{"emailFormat", "reminderInterval", "insecureSigningMethods"}},
	} {
		err := tc.u.check()
		var ae *wire.Error
		if tc.fields == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity {
			t.Fatalf("%s: %v, want a 422", tc.name, err)
		}
		var got []string
		for _, d := range ae.Details {
			got = append(got, d.Field)
		}
		if len(got) != len(tc.fields) {
			t.Errorf("%s: problems %v, want %v", tc.name, got, tc.fields)
			continue
		}
		for i := range got {
			if got[i] != tc.fields[i] {
				t.Errorf("%s: problems %v, want %v", tc.name, got, tc.fields)
			}
		}
	}
}

// Applying an update changes the fields it gives and no other.
func TestSigningRequestUpdateApply(t *testing.T) {
	sg := &Signer{Email: "old@example.com", Texts: EmailTexts{RequestSubject: "Old subject", ReminderText: "Old reminder"},
		ReminderInterval: 2, AccessControl: true, InsecureSigningMethods: []string{"text"}}
	(&SigningRequestUpdate{Email: srPtr("new@example.com"), EmailSubject: srPtr("New subject"), AccessControl: srPtr(false),
		InsecureSigningMethods: &[]string{}}).apply(sg)
	if sg.Email != "new@example.com" || sg.Texts.RequestSubject != "New subject" || sg.AccessControl ||
		len(sg.InsecureSigningMethods) != 0 || sg.InsecureSigningMethods == nil {
		t.Errorf("the given fields: %+v", sg)
	}
	if sg.Texts.ReminderText != "Old reminder" || sg.ReminderInterval != 2 {
		t.Errorf("fields not given changed: %+v", sg)
	}
}
