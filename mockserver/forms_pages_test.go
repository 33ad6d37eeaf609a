package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/testkit"

// The kit's public page helpers under the names signing_form_test.go uses
// (the forms service's own tests are in mockserver/internal/forms).
var (
	postPublic = testkit.PostPublic
	publicPath = testkit.PublicPath
)
