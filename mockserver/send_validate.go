package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// sendDefinition is the data part of a Send create request.
type sendDefinition struct {
	CaseFile *sendCaseFile `json:"caseFile"`
}

// sendCaseFile is the caseFile object of the data part (spec, "Case file
// definition for simple creation"). ExpireAt is a mock extension: an RFC
// 3339 time after which a case file that is still pending expires.
type sendCaseFile struct {
	Title     string         `json:"title"`
	Signers   []sendSigner   `json:"signers"`
	Documents []sendDocument `json:"documents"`
	ExpireAt  string         `json:"expireAt,omitempty"`

	expireAt time.Time
}

type sendSigner struct {
	Name                  string `json:"name"`
	Email                 string `json:"email"`
	Role                  string `json:"role"`
	SignOrder             *int   `json:"signOrder"`
	EmailSubject          string `json:"emailSubject"`
	EmailText             string `json:"emailText"`
	ReminderEmailSubject  string `json:"reminderEmailSubject"`
	ReminderEmailText     string `json:"reminderEmailText"`
	CompletedEmailSubject string `json:"completedEmailSubject"`
	CompletedEmailText    string `json:"completedEmailText"`
	ReminderInterval      *int   `json:"reminderInterval"`
}

type sendDocument struct {
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	Roles    []string `json:"roles"`
	Signable *bool    `json:"signable"`
}

// signable is the document's signable flag, true by default.
func (d *sendDocument) signable() bool { return d.Signable == nil || *d.Signable }

// msgBase64 refuses documents sent inside the JSON.
const msgBase64 = "Base64-encoded PDFs in the JSON are not accepted: upload each document as a binary part of the files element and name it in documents[].name"

// validateSend checks a Send upload and answers its definition, or one
// problem per rule broken (DESIGN section 3, issue 4).
func validateSend(up *sendUpload, now time.Time) (*sendCaseFile, problems) {
	var p problems
	for _, name := range up.unknown {
		p.add(name, "unknown form element: send the definition as data and the documents as files")
	}
	if up.dataParts == 0 {
		p.add("data", "is required: the JSON text of {\"caseFile\":{...}}")
		return nil, p
	}
	if up.dataParts > 1 {
		p.add("data", "must be sent once, not %d times", up.dataParts)
	}
	var def sendDefinition
	if err := json.Unmarshal(up.data, &def); err != nil {
		p.add("data", "is not valid JSON: %v", err)
		return nil, p
	}
	if def.CaseFile == nil {
		p.add("data.caseFile", "is required: the data element is {\"caseFile\":{...}}")
		return nil, p
	}
	base64Paths(&p, up.data)
	cf := def.CaseFile
	if strings.TrimSpace(cf.Title) == "" {
		p.add("caseFile.title", "is required")
	}
	checkSigners(&p, cf.Signers)
	checkDocuments(&p, cf, up.files)
	if cf.ExpireAt != "" {
		t, err := time.Parse(time.RFC3339Nano, cf.ExpireAt)
		switch {
		case err != nil:
			p.add("caseFile.expireAt", "must be an RFC 3339 time")
		case !t.After(now):
			p.add("caseFile.expireAt", "must be in the future")
		}
		cf.expireAt = t
	}
	return cf, p
}

func checkSigners(p *problems, signers []sendSigner) {
	if len(signers) == 0 {
		p.add("caseFile.signers", "at least one signer is required")
	}
	for i, sg := range signers {
		path := fmt.Sprintf("caseFile.signers[%d]", i)
		if strings.TrimSpace(sg.Name) == "" {
			p.add(path+".name", "is required")
		}
		if sg.Email != "" && !validEmail(sg.Email) {
			p.add(path+".email", "is not an email address")
		}
		if sg.SignOrder != nil && *sg.SignOrder < 0 {
			p.add(path+".signOrder", "must be 0 or more")
		}
		if sg.ReminderInterval != nil && *sg.ReminderInterval < 1 {
			p.add(path+".reminderInterval", "must be at least 1 (days)")
		}
	}
}

// checkDocuments checks documents against the uploaded files and signer
// roles: each document names exactly one file, each file is named by one
// document and is a PDF, each role is some signer's, and at least one
// document is signable.
func checkDocuments(p *problems, cf *sendCaseFile, files []uploadedFile) {
	if len(cf.Documents) == 0 {
		p.add("caseFile.documents", "at least one document is required")
	}
	byName := map[string][]int{}
	for j, f := range files {
		byName[f.Name] = append(byName[f.Name], j)
	}
	roles := map[string]bool{}
	for _, sg := range cf.Signers {
		if sg.Role != "" {
			roles[sg.Role] = true
		}
	}
	named := map[string]int{} // file name → first document naming it
	signable := false
	for i, d := range cf.Documents {
		path := fmt.Sprintf("caseFile.documents[%d]", i)
		signable = signable || d.signable()
		switch n := len(byName[d.Name]); {
		case d.Name == "":
			p.add(path+".name", "is required: the name of an uploaded file")
		case n == 0:
			p.add(path+".name", "no uploaded file is named %q", d.Name)
		case n > 1:
			p.add(path+".name", "%d uploaded files are named %q; file names must be unique", n, d.Name)
		}
		if k, dup := named[d.Name]; dup && d.Name != "" {
			p.add(path+".name", "names the same file as caseFile.documents[%d]", k)
		} else {
			named[d.Name] = i
		}
		for k, r := range d.Roles {
			if !roles[r] {
				p.add(fmt.Sprintf("%s.roles[%d]", path, k), "no signer has the role %q", r)
			}
		}
	}
	if len(cf.Documents) > 0 && !signable {
		p.add("caseFile.documents", "at least one document must be signable")
	}
	for j, f := range files {
		if _, ok := named[f.Name]; !ok {
			p.add(fmt.Sprintf("files[%d]", j), "the file %q is not named by any document", f.Name)
		}
		if !f.IsPDF {
			p.add(fmt.Sprintf("files[%d]", j), "the file %q is not a PDF", f.Name)
		}
	}
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
				p.add(strings.TrimPrefix(path, "."), msgBase64)
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
