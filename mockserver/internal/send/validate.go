package send

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/signkit/signkit-go/mockserver/internal/format"
)

// definition is the data part of a Send create request.
type definition struct {
	CaseFile *CaseFile `json:"caseFile"`
}

// CaseFile is the caseFile object of the data part, with every field the vendor
// documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields).
type CaseFile struct {
	Title                     string     `json:"title"`
	Signers                   []Signer   `json:"signers"`
	Documents                 []Document `json:"documents"`
	Language                  string     `json:"language"`
	MetaData                  string     `json:"metaData"`
	Reference                 string     `json:"reference"`
	FolderID                  *int64     `json:"folderId"`
	SendAt                    FlexTime   `json:"sendAt"`
	ExpireAt                  FlexTime   `json:"expireAt"`
	SensitiveData             bool       `json:"sensitiveData"`
	SignOnMeeting             bool       `json:"signOnMeeting"`
	VisibilityMode            *int       `json:"visibilityMode"`
	DisableNotificationsOwner bool       `json:"disableNotificationsOwner"`
	DisableEmailAttachments   bool       `json:"disableEmailAttachments"`
	CCRecipients              []CC       `json:"ccRecipients"`
	// SenderName and the case-level AccessControl are in the vendor's agent
	// skill's schema, not the connector's
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
	SenderName    string `json:"senderName"`
	AccessControl bool   `json:"accessControl"`
}

// CC is a CC recipient of the data part.
type CC struct {
	Name           string `json:"name"`
	Email          string `json:"email"`
	StoreAsContact *bool  `json:"storeAsContact"`
}

// Document is a document of the data part, named after a files part.
type Document struct {
	Name          string   `json:"name"`
	Title         string   `json:"title"`
	Roles         []string `json:"roles"`
	Signable      *bool    `json:"signable"`
	DocumentOrder *int     `json:"documentOrder"`
	MetaData      string   `json:"metaData"`
}

// IsSignable is the document's signable flag, true by default.
func (d *Document) IsSignable() bool { return d.Signable == nil || *d.Signable }

// msgBase64 refuses documents sent inside the JSON.
const msgBase64 = "Base64-encoded PDFs in the JSON are not accepted: upload each document as a binary part of the files element and name it in documents[].name"

// maxTitle is the longest case file or document title, in characters;
// a senderName, when set, has minSender to maxSender characters.
const (
	maxTitle  = 1024
	minSender = 2
	maxSender = 255
)

// validateSend checks a Send upload and answers its definition, or one problem
// per rule broken
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields).
func validate(up *upload, now time.Time) (*CaseFile, problems) {
	var p problems
	p.addAll(up.problems)
	for _, name := range up.unknown {
		p.Add(name, "unknown form element: send the definition as data and the documents as files")
	}
	if up.dataParts == 0 {
		p.Add("data", "is required: the JSON text of {\"caseFile\":{...}}")
		return nil, p
	}
	if up.dataParts > 1 {
		p.Add("data", "must be sent once, not %d times", up.dataParts)
	}
	// Keys are read exactly (jsonkeys.go): a case variant or a key given
	// twice would be read otherwise by the decoder than by the scanner.
	var keys problems
	if checkKeys(&keys, up.data); keys.n > 0 {
		p.addAll(keys)
		return nil, p
	}
	var def definition
	if err := json.Unmarshal(up.data, &def); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			p.Add(te.Field, "must be %s, not a JSON %s", jsonKind(te.Type), te.Value)
		} else {
			p.Add("data", "is not valid JSON: %v", err)
		}
		return nil, p
	}
	if def.CaseFile == nil {
		p.Add("data.caseFile", "is required: the data element is {\"caseFile\":{...}}")
		return nil, p
	}
	if !up.inline {
		// The multipart route takes files as parts, never inside the JSON.
		base64Paths(&p, up.data)
	}
	cf := def.CaseFile
	checkCaseFile(&p, cf, now)
	checkSigners(&p, cf.Signers)
	if up.inline {
		checkInlineDocuments(&p, cf, up.files)
	} else {
		checkDocuments(&p, cf, up.files)
	}
	return cf, p
}

// checkCaseFile checks the case file's own fields.
func checkCaseFile(p *problems, cf *CaseFile, now time.Time) {
	checkTitle(p, "caseFile.title", cf.Title)
	checkLanguage(p, "caseFile.language", cf.Language)
	if n := utf8.RuneCountInString(cf.SenderName); cf.SenderName != "" && (n < minSender || n > maxSender) {
		p.Add("caseFile.senderName", "must be %d to %d characters, not %d", minSender, maxSender, n)
	}
	if cf.FolderID != nil && *cf.FolderID < 1 {
		p.Add("caseFile.folderId", "must be at least 1")
	}
	if cf.VisibilityMode != nil && *cf.VisibilityMode != 0 && *cf.VisibilityMode != 1 {
		p.Add("caseFile.visibilityMode", "must be 0 (signers see every document) or 1 (only those they sign)")
	}
	cf.SendAt.check(p, "caseFile.sendAt")
	cf.ExpireAt.check(p, "caseFile.expireAt")
	switch exp := cf.ExpireAt.t; {
	case exp.IsZero():
	case !exp.After(now):
		p.Add("caseFile.expireAt", "must be in the future")
	case !cf.SendAt.t.IsZero() && !exp.After(cf.SendAt.t):
		p.Add("caseFile.expireAt", "must be after sendAt")
	}
	for i, cc := range cf.CCRecipients {
		path := fmt.Sprintf("caseFile.ccRecipients[%d]", i)
		if strings.TrimSpace(cc.Name) == "" {
			p.Add(path+".name", "is required")
		}
		switch {
		case cc.Email == "":
			p.Add(path+".email", "is required")
		case !format.Email(cc.Email):
			p.Add(path+".email", "is not an email address")
		}
	}
}

// checkTitle checks a required title of 1 to maxTitle characters.
func checkTitle(p *problems, field, title string) {
	switch n := utf8.RuneCountInString(title); {
	case strings.TrimSpace(title) == "":
		p.Add(field, "is required")
	case n > maxTitle:
		p.Add(field, "must be at most %d characters, not %d", maxTitle, n)
	}
}

// checkDocuments checks documents against the uploaded files and signer
// roles: each document names exactly one file, each file is named by one
// document and is a PDF, each role is some signer's, and at least one
// document is signable.
func checkDocuments(p *problems, cf *CaseFile, files []File) {
	if len(cf.Documents) == 0 {
		p.Add("caseFile.documents", "at least one document is required")
	}
	byName := map[string][]int{}
	for j, f := range files {
		byName[f.Name] = append(byName[f.Name], j)
	}
	roles := signerRoles(cf)
	named := map[string]int{} // file name → first document naming it
	signable := false
	for i, d := range cf.Documents {
		path := fmt.Sprintf("caseFile.documents[%d]", i)
		signable = signable || d.IsSignable()
		switch n := len(byName[d.Name]); {
		case d.Name == "":
			p.Add(path+".name", "is required: the name of an uploaded file")
		case n == 0:
			p.Add(path+".name", "no uploaded file is named %q", d.Name)
		case n > 1:
			p.Add(path+".name", "%d uploaded files are named %q; file names must be unique", n, d.Name)
		}
		if k, dup := named[d.Name]; dup && d.Name != "" {
			p.Add(path+".name", "names the same file as caseFile.documents[%d]", k)
		} else {
			named[d.Name] = i
		}
		checkDocument(p, path, &d, roles)
	}
	if len(cf.Documents) > 0 && !signable {
		p.Add("caseFile.documents", "at least one document must be signable")
	}
	for j, f := range files {
		if _, ok := named[f.Name]; !ok {
			p.Add(fmt.Sprintf("files[%d]", j), "the file %q is not named by any document", f.Name)
		}
		if !f.IsPDF {
			p.Add(fmt.Sprintf("files[%d]", j), "the file %q is not a PDF", f.Name)
		}
	}
}

// checkInlineDocuments checks the documents of the JSON route, each of
// which carries its own PDF (files, found by Doc) and needs no name: the
// document's fields, that the content is a PDF, and that one document is
// signable.
func checkInlineDocuments(p *problems, cf *CaseFile, files []File) {
	if len(cf.Documents) == 0 {
		p.Add("caseFile.documents", "at least one document is required")
	}
	roles := signerRoles(cf)
	signable := false
	for i, d := range cf.Documents {
		signable = signable || d.IsSignable()
		checkDocument(p, fmt.Sprintf("caseFile.documents[%d]", i), &d, roles)
	}
	if len(cf.Documents) > 0 && !signable {
		p.Add("caseFile.documents", "at least one document must be signable")
	}
	for _, f := range files {
		if !f.IsPDF {
			p.Add(f.Field, "is not a PDF once base64-decoded")
		}
	}
}

// checkDocument checks a document's own fields: its title, its order, and
// that each of its roles is well formed and some signer's.
func checkDocument(p *problems, path string, d *Document, roles map[string]bool) {
	checkTitle(p, path+".title", d.Title)
	if d.DocumentOrder != nil && *d.DocumentOrder < 0 {
		p.Add(path+".documentOrder", "must be 0 or more")
	}
	for k, r := range d.Roles {
		field := fmt.Sprintf("%s.roles[%d]", path, k)
		if !checkRole(p, field, r) {
			continue
		}
		if !roles[r] {
			p.Add(field, "no signer has the role %q", r)
		}
	}
}

// signerRoles answers the set of the signers' roles.
func signerRoles(cf *CaseFile) map[string]bool {
	roles := map[string]bool{}
	for _, sg := range cf.Signers {
		if sg.Role != "" {
			roles[sg.Role] = true
		}
	}
	return roles
}

// base64Paths reports every string of the data part that holds a
// Base64-encoded PDF ("JVBERi" is "%PDF-" in Base64) and every document
// property that carries content inline.
func base64Paths(p *problems, data []byte) {
	var root any
	dec := json.NewDecoder(bytes.NewReader(data))
	if dec.Decode(&root) != nil {
		return
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(path+"."+k, x[k])
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case string:
			if strings.HasPrefix(strings.TrimSpace(x), "JVBERi") || isInlineContent(path) {
				p.Add(strings.TrimPrefix(path, "."), msgBase64)
			}
		}
	}
	walk("", root)
}

// isInlineContent tells whether a path is a document property that would
// carry file content (content, file, base64 …) rather than a reference.
func isInlineContent(path string) bool {
	if !strings.HasPrefix(path, ".caseFile.documents[") {
		return false
	}
	last := path[strings.LastIndex(path, ".")+1:]
	return slices.Contains([]string{"content", "file", "fileContent", "base64", "data", "pdf"}, last)
}
