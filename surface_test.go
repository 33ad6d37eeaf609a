package signkit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoExportedNameNeedsAnInternalType walks every package users can import
// (all but internal/, cmd/ and examples/) and fails on an exported function,
// method or struct field whose signature or type names a type of an internal
// package: users could see it but never call or fill it
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#one-way-in).
func TestNoExportedNameNeedsAnInternalType(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch {
			case path != "." && strings.HasPrefix(d.Name(), "."),
				d.Name() == "internal", d.Name() == "cmd", d.Name() == "examples", d.Name() == "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, leak := range internalLeaks(f) {
			t.Errorf("%s: exported %s needs %s, which users cannot name or build", fset.Position(leak.pos), leak.name, leak.typ)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: the walk is broken", checked)
	}
}

// leak is an exported name whose type names an internal package's type.
type leak struct {
	pos  token.Pos
	name string
	typ  string
}

// internalLeaks answers the exported functions, methods of exported types
// and exported fields of exported structs in f that name a type of a
// package imported from an internal/ path.
func internalLeaks(f *ast.File) []leak {
	internal := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(p, "/internal/") {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = true
	}
	var out []leak
	names := func(n ast.Node) []string {
		var found []string
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
					found = append(found, id.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
		return found
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedReceiver(d.Recv)) {
				continue
			}
			for _, typ := range names(d.Type) {
				out = append(out, leak{d.Pos(), "func " + d.Name.Name, typ})
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					for _, fn := range field.Names {
						if !fn.IsExported() {
							continue
						}
						for _, typ := range names(field.Type) {
							out = append(out, leak{fn.Pos(), ts.Name.Name + "." + fn.Name, typ})
						}
					}
				}
			}
		}
	}
	return out
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}
