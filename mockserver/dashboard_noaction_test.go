package mockserver

import (
	"fmt"
	"html"
	"regexp"
	"testing"
)

// TestDashboardSignerWithNoActionSaysWhy reads the Actions cell of a
// signer the state allows nothing: it says, in a sentence, that there is
// nothing to do and why, from the case file's status once it has ended,
// otherwise from the signer's.
func TestDashboardSignerWithNoActionSaysWhy(t *testing.T) {
	t.Parallel()
	s, tok, pdf := sndServer(t)
	for _, tt := range []struct {
		name    string
		signers []string
		actions [][2]string // signer name, action, in turn
		row     string      // whose row is read
		want    string
	}{
		{"completed", []string{"Ann:ann@example.com"}, [][2]string{{"Ann", ActionSign}}, "Ann",
			"Nothing to do: the case file is completed."},
		{"rejected", []string{"Ann:ann@example.com:0", "Bob:bob@example.com:0"}, [][2]string{{"Ann", ActionReject}}, "Bob",
			"Nothing to do: the case file is rejected."},
		{"signed, others to sign", []string{"Ann:ann@example.com:0", "Bob:bob@example.com:0"}, [][2]string{{"Ann", ActionSign}}, "Ann",
			"Nothing to do: Ann has signed."},
		{"removed", []string{"Ann:ann@example.com:0", "Bob:bob@example.com:1"}, [][2]string{{"Bob", ActionDelete}}, "Bob",
			"Nothing to do: Bob was removed."},
	} {
		def := sndCase(tt.signers...)
		def["title"] = "No action: " + tt.name
		id, _ := sndRun(t, s, tok, def, pdf)
		for _, a := range tt.actions {
			if err := s.SignerAction(id, sndSignerID(t, s, id, a[0]), a[1]); err != nil {
				t.Fatalf("%s: %s of %s: %v", tt.name, a[1], a[0], err)
			}
		}
		page := dashGet(t, s, "/mock/ui/casefiles")
		row := regexp.MustCompile(fmt.Sprintf(`(?s)<tr class="signer" id="signer-%d">.*?</tr>`, sndSignerID(t, s, id, tt.row))).FindString(page)
		m := regexp.MustCompile(`<span class="none">([^<]*)</span>`).FindStringSubmatch(row)
		if m == nil || html.UnescapeString(m[1]) != tt.want {
			t.Errorf("%s: %s's row %q, want %q", tt.name, tt.row, row, tt.want)
		}
	}
}
