package send

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/signkit/signkit-go/mockserver/internal/format"
)

// Signer is a signer of the data part, with every field the vendor documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// signer fields).
type Signer struct {
	Name                   string   `json:"name"`
	Email                  string   `json:"email"`
	Role                   string   `json:"role"`
	SignOrder              *int     `json:"signOrder"`
	EmailSubject           *string  `json:"emailSubject"`
	EmailText              *string  `json:"emailText"`
	ReminderEmailSubject   *string  `json:"reminderEmailSubject"`
	ReminderEmailText      *string  `json:"reminderEmailText"`
	CompletedEmailSubject  *string  `json:"completedEmailSubject"`
	CompletedEmailText     *string  `json:"completedEmailText"`
	ReminderInterval       *int     `json:"reminderInterval"`
	OnBehalfOf             string   `json:"onBehalfOf"`
	SSNType                string   `json:"ssnType"`
	SSN                    string   `json:"socialSecurityNumberPlain"`
	VATIN                  string   `json:"vatin"`
	AccessControl          bool     `json:"accessControl"`
	Language               string   `json:"language"`
	SuccessURL             *string  `json:"successUrl"`
	FailURL                *string  `json:"failUrl"`
	ActiveAt               FlexTime `json:"activeAt"`
	ExpireAt               FlexTime `json:"expireAt"`
	StoreAsContact         *bool    `json:"storeAsContact"`
	EmailFormat            string   `json:"emailFormat"`
	EnableInsecureSigning  bool     `json:"enableInsecureSigning"`
	InsecureSigningMethods []string `json:"insecureSigningMethods"`
	SecureSigningMethods   []string `json:"secureSigningMethods"`
}

// Enumerations of the vendor's Send schema: the connector's enums
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// The SDK passes values outside them on (the platform extends these lists); the
// mock refuses them, as a vendor source rules them out, with a message that
// names the accepted values.
var (
	sendLanguages      = []string{"en", "da", "sv", "nl", "fr", "fi", "no", "de"}
	sendSSNTypes       = []string{"legacy", "dk:cpr", "se:pin", "no:nin", "be:nrn", "fi:pic", "google:oidc", "microsoft:oidc", "sms"}
	sendEmailFormats   = []string{"text", "html"}
	sendInsecureMethod = []string{"text", "draw", "image"}
	sendSecureMethods  = []string{"mitid.dk", "bankid_se", "bankid_no", "itsme.be", "ftn.fi", "eid.belgium.be",
		"passport-reader.eident.dk", "ausweisapp.bund.de", "qes.personal.mitid.dk"}
)

// rolePattern is the vendor's pattern for signer and document roles; a
// role also has at least 3 characters.
var rolePattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9 ,_-]*[a-zA-Z0-9,_-]$`)

// minText is the shortest email subject or text, and minURL the shortest
// success or fail URL, in characters.
const (
	minText = 5
	minURL  = 5
)

func checkSigners(p *problems, signers []Signer) {
	if len(signers) == 0 {
		p.Add("caseFile.signers", "at least one signer is required")
	}
	for i := range signers {
		checkSigner(p, fmt.Sprintf("caseFile.signers[%d]", i), &signers[i])
	}
}

// checkSigner checks one signer against the vendor's constraints.
func checkSigner(p *problems, path string, sg *Signer) {
	if strings.TrimSpace(sg.Name) == "" {
		p.Add(path+".name", "is required")
	}
	if sg.Email != "" && !format.Email(sg.Email) {
		p.Add(path+".email", "is not an email address")
	}
	if sg.Role != "" {
		checkRole(p, path+".role", sg.Role)
	}
	if sg.SignOrder != nil && *sg.SignOrder < 0 {
		p.Add(path+".signOrder", "must be 0 or more")
	}
	if sg.ReminderInterval != nil && *sg.ReminderInterval < 1 {
		p.Add(path+".reminderInterval", "must be at least 1 (days)")
	}
	for _, t := range []struct {
		name string
		v    *string
	}{{"emailSubject", sg.EmailSubject}, {"emailText", sg.EmailText}, {"reminderEmailSubject", sg.ReminderEmailSubject},
		{"reminderEmailText", sg.ReminderEmailText}, {"completedEmailSubject", sg.CompletedEmailSubject},
		{"completedEmailText", sg.CompletedEmailText}} {
		if t.v != nil && utf8.RuneCountInString(*t.v) < minText {
			p.Add(path+"."+t.name, "must be at least %d characters", minText)
		}
	}
	for _, u := range []struct {
		name string
		v    *string
	}{{"successUrl", sg.SuccessURL}, {"failUrl", sg.FailURL}} {
		if u.v != nil {
			checkURL(p, path+"."+u.name, *u.v)
		}
	}
	checkLanguage(p, path+".language", sg.Language)
	checkEnum(p, path+".ssnType", sg.SSNType, sendSSNTypes)
	checkEnum(p, path+".emailFormat", sg.EmailFormat, sendEmailFormats)
	for k, m := range sg.InsecureSigningMethods {
		checkEnum(p, fmt.Sprintf("%s.insecureSigningMethods[%d]", path, k), m, sendInsecureMethod)
	}
	if sg.SecureSigningMethods != nil && len(sg.SecureSigningMethods) == 0 {
		p.Add(path+".secureSigningMethods", "must list at least one method when present")
	}
	for k, m := range sg.SecureSigningMethods {
		checkEnum(p, fmt.Sprintf("%s.secureSigningMethods[%d]", path, k), m, sendSecureMethods)
	}
	sg.ActiveAt.check(p, path+".activeAt")
	sg.ExpireAt.check(p, path+".expireAt")
	if a, e := sg.ActiveAt.t, sg.ExpireAt.t; !a.IsZero() && !e.IsZero() && !e.After(a) {
		p.Add(path+".expireAt", "must be after activeAt")
	}
}

// checkRole checks a role against the vendor's pattern and length; it
// answers whether the role is well formed.
func checkRole(p *problems, field, role string) bool {
	if len(role) < 3 || !rolePattern.MatchString(role) {
		p.Add(field, "must be at least 3 characters: letters, digits, spaces, commas, underscores and hyphens, "+
			"starting with a letter or digit and not ending with a space")
		return false
	}
	return true
}

// checkURL checks a success or fail URL: absolute, at least minURL long.
func checkURL(p *problems, field, v string) {
	u, err := url.Parse(v)
	if utf8.RuneCountInString(v) < minURL || err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
		p.Add(field, "must be an absolute URL of at least %d characters", minURL)
	}
}

// checkLanguage checks an optional language code (matched without regard
// to case).
func checkLanguage(p *problems, field, lang string) {
	if lang != "" && !slices.Contains(sendLanguages, strings.ToLower(lang)) {
		p.Add(field, "must be one of %s, got %.40q", strings.Join(sendLanguages, ", "), lang)
	}
}

// checkEnum checks an optional value against a list.
func checkEnum(p *problems, field, v string, allowed []string) {
	if v != "" && !slices.Contains(allowed, v) {
		p.Add(field, "must be one of %s, got %.40q", strings.Join(allowed, ", "), v)
	}
}

// jsonKind names the JSON kind a Go type is decoded from, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "of another type"
}

// FlexTime is a time of the data part: integer unix seconds, as the vendor
// documents, or an RFC 3339 string, which the mock also takes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// Decoding never fails, so that every field gets its own problem: check reports
// a malformed value.
type FlexTime struct {
	t   time.Time
	bad bool
}

// Value answers the time, zero when the field was absent or null.
func (f FlexTime) Value() time.Time { return f.t }

// UnmarshalJSON reads null, an integer or an RFC 3339 string.
func (f *FlexTime) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*f = FlexTime{}
	switch {
	case string(b) == "null":
	case len(b) > 0 && b[0] == '"':
		var s string
		t, err := time.Time{}, json.Unmarshal(b, &s)
		if err == nil {
			t, err = time.Parse(time.RFC3339Nano, s)
		}
		f.t, f.bad = t, err != nil
	default:
		n, err := strconv.ParseInt(string(b), 10, 64)
		f.bad = err != nil || n <= 0
		if !f.bad {
			f.t = time.Unix(n, 0).UTC()
		}
	}
	return nil
}

// check reports a malformed time.
func (f FlexTime) check(p *problems, field string) {
	if f.bad {
		p.Add(field, "must be a time: integer unix seconds or an RFC 3339 string")
	}
}
