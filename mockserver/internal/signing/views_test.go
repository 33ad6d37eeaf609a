package signing

import (
	"slices"
	"testing"
)

// allowedActions offers what signerAction allows (both use the rule's
// refusal): a pending case
// file; a pending or undeliverable signer, a signer whose round has not
// started only for delete; an email for request-opened, bounce and
// undeliverable.
func TestAllowedActions(t *testing.T) {
	all := slices.DeleteFunc(slices.Clone(signerActions), func(a string) bool { return a == ActionDelete })
	for _, tc := range []struct {
		cf, status int
		email      string
		want       []string
	}{
		{cfPending, sgPending, "a@example.com", all},
		{cfPending, sgPending, "", []string{"open", "sign", "reject"}},
		{cfPending, sgUndeliverable, "a@example.com", []string{"request-opened", "open", "sign", "reject", "bounce"}},
		{cfPending, sgNew, "a@example.com", []string{"delete"}},
		{cfPending, sgSigned, "a@example.com", nil},
		{cfPending, sgDeleted, "a@example.com", nil},
		{cfCompleted, sgSigned, "a@example.com", nil},
		{cfRejected, sgPending, "a@example.com", nil},
	} {
		got := allowedActions(&CaseFile{Status: tc.cf}, &Signer{Status: tc.status, Email: tc.email})
		if !slices.Equal(got, tc.want) {
			t.Errorf("case file %s, signer %s (email %q): %v, want %v",
				caseFileStatusName(tc.cf), signerStatusName(tc.status), tc.email, got, tc.want)
		}
	}
}
