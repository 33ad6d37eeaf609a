package casefiles

import (
	"fmt"
	"slices"
	"strings"
)

// SecureSigningMethod is an electronic ID a signer may sign with. The
// values are the platform's (docs/platform.md, Send: signer fields); a
// value this package does not know is refused by Validate, since the
// platform refuses it too.
type SecureSigningMethod string

// The secure signing methods the platform offers.
const (
	SecureMitID          SecureSigningMethod = "mitid.dk"                  // MitID (Denmark)
	SecureBankIDSweden   SecureSigningMethod = "bankid_se"                 // BankID (Sweden)
	SecureBankIDNorway   SecureSigningMethod = "bankid_no"                 // BankID (Norway)
	SecureItsme          SecureSigningMethod = "itsme.be"                  // itsme (Belgium)
	SecureFTN            SecureSigningMethod = "ftn.fi"                    // Finnish Trust Network (Finland)
	SecureBelgianEID     SecureSigningMethod = "eid.belgium.be"            // Belgian eID card
	SecurePassportReader SecureSigningMethod = "passport-reader.eident.dk" // passport read by the signer's phone
	SecureAusweisApp     SecureSigningMethod = "ausweisapp.bund.de"        // AusweisApp (Germany)
	SecureQualifiedMitID SecureSigningMethod = "qes.personal.mitid.dk"     // qualified signature with MitID
)

// secureSigningMethods lists the known secure methods, for IsKnown and
// Validate's message.
var secureSigningMethods = []SecureSigningMethod{SecureMitID, SecureBankIDSweden, SecureBankIDNorway, SecureItsme,
	SecureFTN, SecureBelgianEID, SecurePassportReader, SecureAusweisApp, SecureQualifiedMitID}

// IsKnown reports whether m is one of the secure signing methods of this
// package.
func (m SecureSigningMethod) IsKnown() bool { return slices.Contains(secureSigningMethods, m) }

// InsecureSigningMethod is a touch signature: a signature that proves no
// identity (docs/platform.md, Send: signer fields).
type InsecureSigningMethod string

// The insecure signing methods the platform offers.
const (
	InsecureText  InsecureSigningMethod = "text"  // the name typed
	InsecureDraw  InsecureSigningMethod = "draw"  // drawn by hand
	InsecureImage InsecureSigningMethod = "image" // an uploaded image
)

// insecureSigningMethods lists the known insecure methods.
var insecureSigningMethods = []InsecureSigningMethod{InsecureText, InsecureDraw, InsecureImage}

// IsKnown reports whether m is one of the insecure signing methods of this
// package.
func (m InsecureSigningMethod) IsKnown() bool { return slices.Contains(insecureSigningMethods, m) }

// EmailFormat is the format of the emails the platform sends a signer.
type EmailFormat string

// The email formats; the platform's default is EmailFormatText.
const (
	EmailFormatText EmailFormat = "text"
	EmailFormatHTML EmailFormat = "html"
)

// emailFormats lists the known email formats.
var emailFormats = []EmailFormat{EmailFormatText, EmailFormatHTML}

// IsKnown reports whether f is one of the email formats of this package.
func (f EmailFormat) IsKnown() bool { return slices.Contains(emailFormats, f) }

// joinValues lists values for a message: "a, b, c".
func joinValues[T ~string](values []T) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// validateSigningMethods checks a signer's signing methods and email
// format against the platform's constraints (docs/platform.md, Send:
// signer fields): a secure method list that is set names at least one
// method, and every value is one the platform knows.
func (s *Signer) validateSigningMethods(p *problems, field string) {
	if s.SecureSigningMethods != nil && len(s.SecureSigningMethods) == 0 {
		p.add(field+".secureSigningMethods", "must list at least one method when set (nil leaves the platform's setting)")
	}
	for k, m := range s.SecureSigningMethods {
		if !m.IsKnown() {
			p.add(fmt.Sprintf("%s.secureSigningMethods[%d]", field, k), "must be one of %s, got %q",
				joinValues(secureSigningMethods), string(m))
		}
	}
	for k, m := range s.InsecureSigningMethods {
		if !m.IsKnown() {
			p.add(fmt.Sprintf("%s.insecureSigningMethods[%d]", field, k), "must be one of %s, got %q",
				joinValues(insecureSigningMethods), string(m))
		}
	}
	if s.EmailFormat != "" && !s.EmailFormat.IsKnown() {
		p.add(field+".emailFormat", "must be one of %s, got %q", joinValues(emailFormats), string(s.EmailFormat))
	}
}
