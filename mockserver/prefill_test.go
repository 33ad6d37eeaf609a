package mockserver

import (
	"net/http"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// FuzzPrefillV2 posts arbitrary bytes as a v2 prefilled request of an
// ACTIVE form with a multi-entry section: never 5xx, and a request is
// stored exactly when the answer is 200.
func FuzzPrefillV2(f *testing.F) {
	s := newManual(f, fuzzLimits)
	tok := login(f, s, s.DefaultCredentials())
	form := activeForm(f, s, tok, testkit.JobApplication(2))
	path := "/collect/api/v2/forms/" + form.ExternalID + "/requests"
	f.Add([]byte(`{"answers":{"personal-information":[{"full_name":{"value":"Jane","editable":true}}]}}`))
	f.Add([]byte(`{"answers":{"previous-employment":[{"employer":{"value":"A"}},{"employer":{"value":"B","editable":false}}]}}`))
	f.Add([]byte(`{"answers":{"previous-employment":[{},{},{}]}}`))
	f.Add([]byte(`{"answers":{"personal-information":[null]}}`))
	f.Add([]byte(`{"answers":{"nope":[{"x":{"value":"1"}}]}}`))
	f.Add([]byte(`{"answers":{"personal-information":{"full_name":{"value":"x"}}}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		createdOnlyOn(t, s, path, tok, body, http.StatusOK, "prefilled requests", s.prefillCount)
	})
}
