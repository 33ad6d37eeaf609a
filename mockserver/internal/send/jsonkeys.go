package send

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// The keys of a create request's definition are read exactly, as the platform's
// schema names them
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// encoding/json, which decodes the definition, matches keys without regard to
// case, and takes the last of two equal keys; the JSON route's scanner matches
// caseFile, documents and pdf exactly. So that both read the same keys, a key
// that matches a known one only in case, or a key given twice, in an object the
// mock reads is refused before the definition is decoded. Other keys are
// accepted and not read: the vendor's schemas do not close their objects.

// shape is the keys of an object the mock reads, and the objects it reads
// under them.
type shape struct {
	exact  map[string]bool   // the keys, as spelt
	folded map[string]string // fold(key) → key
	object map[string]*shape // keys whose value is such an object
	list   map[string]*shape // keys whose value is an array of them
}

// definitionShape is the shape of {"caseFile":{...}}, from the json tags of
// the types validate decodes into, so that it names the keys they read; a
// document also has pdf on the JSON route (jsonscan.go).
var definitionShape = func() *shape {
	document := shapeOf(reflect.TypeFor[Document](), "pdf")
	caseFile := shapeOf(reflect.TypeFor[CaseFile]())
	caseFile.list = map[string]*shape{"signers": shapeOf(reflect.TypeFor[Signer]()),
		"documents": document, "ccRecipients": shapeOf(reflect.TypeFor[CC]())}
	root := shapeOf(reflect.TypeFor[definition]())
	root.object = map[string]*shape{"caseFile": caseFile}
	return root
}()

// shapeOf answers the shape whose keys are the json names of t's fields
// and more.
func shapeOf(t reflect.Type, more ...string) *shape {
	sh := &shape{exact: map[string]bool{}, folded: map[string]string{}}
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			more = append(more, name)
		}
	}
	for _, k := range more {
		sh.exact[k], sh.folded[foldKey(k)] = true, k
	}
	return sh
}

// spelling answers the known key that key matches only in case, or "".
func (sh *shape) spelling(key string) string {
	if sh.exact[key] {
		return ""
	}
	return sh.folded[foldKey(key)]
}

// foldKey folds a key as encoding/json does when it matches a key to a
// field: ASCII letters to upper case, any other rune to the upper case of
// its lower case (so the Kelvin sign matches k, and ſ matches s).
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		switch {
		case r < utf8.RuneSelf:
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
		default:
			r = unicode.ToUpper(unicode.ToLower(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}

// msgSpelling is the problem of a key that matches known only in case.
func msgSpelling(known string) string {
	return fmt.Sprintf("is not a key of the platform's schema, which spells it %q: keys are read exactly", known)
}

// msgTwice is the problem of a key given twice in one object.
const msgTwice = "is given twice in one object: which one counts would be a guess"

// keyRefusal is the 400 of one key, refused while the body streams.
func keyRefusal(field, msg string) error {
	return &wire.Error{Status: http.StatusBadRequest, Code: "bad_request", Message: field + ": " + msg,
		Details: []wire.FieldError{{Field: field, Message: msg}}}
}

// checkKeys records a problem for every key of the definition data that
// matches a known key only in case, and for every key given twice in one
// object the mock reads. JSON that does not parse is left to the decoder.
func checkKeys(p *problems, data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	_ = keyWalk(dec, p, "", definitionShape, false)
}

// keyWalk reads the next value of dec, found at path: an object of shape
// sh, or (list) an array of them. A value the mock does not read is skipped
// whole, so that the walk goes no deeper than the schema.
func keyWalk(dec *json.Decoder, p *problems, path string, sh *shape, list bool) error {
	if sh == nil {
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch {
	case tok == json.Delim('[') && list:
		for i := 0; dec.More(); i++ {
			if err := keyWalk(dec, p, fmt.Sprintf("%s[%d]", path, i), sh, false); err != nil {
				return err
			}
		}
	case tok == json.Delim('{') && !list:
		if err := keyWalkObject(dec, p, path, sh); err != nil {
			return err
		}
	case tok == json.Delim('[') || tok == json.Delim('{'):
		// Not what the schema wants here: the decoder says so.
		for dec.More() {
			if tok == json.Delim('{') {
				if _, err := dec.Token(); err != nil { // the key
					return err
				}
			}
			if err := keyWalk(dec, p, path, nil, false); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = dec.Token() // the closing ] or }
	return err
}

// keyWalkObject reads the members of an object of shape sh whose { was
// read.
func keyWalkObject(dec *json.Decoder, p *problems, path string, sh *shape) error {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		field := key
		if path != "" {
			field = path + "." + key
		}
		if seen[key] {
			p.Add(field, msgTwice)
		}
		seen[key] = true
		if known := sh.spelling(key); known != "" {
			p.Add(field, "%s", msgSpelling(known))
		}
		next, list := sh.object[key], false
		if l, ok := sh.list[key]; ok {
			next, list = l, true
		}
		if err := keyWalk(dec, p, field, next, list); err != nil {
			return err
		}
	}
	return nil
}

// streamKeys are the keys the JSON route's scanner acts on while the body
// streams, by where they sit (jsonscan.go).
var streamKeys = map[place]string{atRoot: "caseFile", atCaseFile: "documents", atDocument: "pdf"}

// checkStreamKey refuses at once a key that matches one the scanner acts on
// only in case: read on, the body would be copied as a definition without
// documents, their content into memory.
func (sp *jsonScanner) checkStreamKey(at place, index int, key string) error {
	known, ok := streamKeys[at]
	if !ok || key == known || foldKey(key) != foldKey(known) {
		return nil
	}
	field := map[place]string{atRoot: key, atCaseFile: "caseFile." + key,
		atDocument: fmt.Sprintf("caseFile.documents[%d].%s", index, key)}[at]
	return keyRefusal(field, msgSpelling(known))
}
