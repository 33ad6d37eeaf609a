// Package doccheck holds the tests that keep the repository's docs true to
// its tree; it has no code of its own.
//
// TestDocLinks reads the comments of every .go file in the repository (every
// directory, test files, testdata and the nested modules included; string
// literals are not comments) and fails on:
//
//   - a link to a file of this repository (a URL under
//     github.com/signkit/signkit-go/blob/main/, or tree/main/ for a
//     directory) whose file or directory does not exist, or whose #anchor is
//     not the anchor of a heading of that markdown file (GitHub's rules:
//     lowercase, punctuation other than '-' and '_' dropped, spaces turned
//     into '-', a repeated heading suffixed -1, -2, …);
//   - a bare repository path to a document: a markdown file under a docs
//     directory, or the README, BENCHMARKS or CHANGELOG markdown file, with
//     or without a directory before it. Such a path reads as dead text on
//     pkg.go.dev: the comment gives the URL instead, with the anchor of the
//     section it names. A path inside a URL does not count, nor other files
//     (the generated OpenAPI description). A vendor's document is cited by
//     its own URL too, never by its path in the vendor's repository.
//
// TestArchitectureListsEveryPackage compares the package tables of
// https://github.com/signkit/signkit-go/blob/main/docs/architecture.md with
// go list, run in each module of the tree (each directory with a go.mod,
// outside .ci, testdata and hidden directories): every package listed once,
// none that go list does not know, and each row's imports from this
// repository exactly those go list gives.
package doccheck
