package signkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/internal/apierror"
)

// TestErrorDocNamesEveryField keeps the doc comment of the Error alias in
// step with the type: go doc signkit.Error shows the comment, not the
// fields of the internal type, so each field must be named there.
func TestErrorDocNamesEveryField(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				if s.(*ast.TypeSpec).Name.Name == "Error" {
					doc = g.Doc.Text()
				}
			}
		}
	}
	if doc == "" {
		t.Fatal("type Error has no doc comment")
	}
	typ := reflect.TypeFor[apierror.Error]()
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; !strings.Contains(doc, name) {
			t.Errorf("the doc comment of Error does not name its field %s", name)
		}
	}
}
