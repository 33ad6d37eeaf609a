package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/forms"

// formJSON is the forms service's stored form, as load_bench_test.go reads
// it (the service's own tests are in mockserver/internal/forms).
type formJSON = forms.FormJSON
