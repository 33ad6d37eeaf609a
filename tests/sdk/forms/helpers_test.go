package forms_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/forms"
)

// The fixtures are package forms' own (forms/testdata), written in the
// shapes the platform documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// read in place, not copied, so that the two packages' tests cannot drift.
var fixtureDir = filepath.Join("..", "..", "..", "forms", "testdata")

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	require.NoError(t, err)
	return b
}

// everyPropertyForm is forms/testdata/form_every_property.json decoded;
// package forms' TestFormFixtures checks that it decodes to its Go copy of
// the same form.
func everyPropertyForm(t *testing.T) *forms.Form {
	t.Helper()
	var f forms.Form
	require.NoError(t, json.Unmarshal(fixture(t, "form_every_property.json"), &f))
	return &f
}

// mustJSON marshals v.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// ctx is a test context.
func ctx(t testing.TB) context.Context { return t.Context() }
