package forms_test

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/testkit/mocktest"
)

// newManual is a mock on a manual clock (mocktest.Manual) with a fresh
// token of its default admin.
func newManual(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string) {
	t.Helper()
	s := mocktest.Manual(t, opts...)
	return s, mocktest.AdminToken(t, s)
}

// login is the kit's, under the name these tests use.
var login = mocktest.Login

// prefillAnswer is the answer to a prefilled request: the link, or the
// error.
type prefillAnswer struct {
	RequestURL string `json:"requestUrl"`
	RequestID  string `json:"requestId"`
	testkit.APIError
}
