package casefiles

import "slices"

// SecureSigningMethod is an electronic ID a signer may sign with. The constants
// are the platform's values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// signer fields). The platform adds methods from time to time, so Validate
// passes a value this package does not know and leaves the judgement to the
// platform, which answers a 400 naming the values it accepts; IsKnown says
// whether a value is one of the constants.
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

// secureSigningMethods lists the known secure methods, for IsKnown.
var secureSigningMethods = []SecureSigningMethod{SecureMitID, SecureBankIDSweden, SecureBankIDNorway, SecureItsme,
	SecureFTN, SecureBelgianEID, SecurePassportReader, SecureAusweisApp, SecureQualifiedMitID}

// IsKnown reports whether m is one of the secure signing methods of this
// package. It is advisory: Validate passes unknown methods to the platform.
func (m SecureSigningMethod) IsKnown() bool { return slices.Contains(secureSigningMethods, m) }

// InsecureSigningMethod is a touch signature: a signature that proves no
// identity
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// signer fields). As for SecureSigningMethod, Validate passes a value this
// package does not know.
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
// package. It is advisory: Validate passes unknown methods to the platform.
func (m InsecureSigningMethod) IsKnown() bool { return slices.Contains(insecureSigningMethods, m) }

// EmailFormat is the format of the emails the platform sends a signer. As
// for SecureSigningMethod, Validate passes a value this package does not
// know.
type EmailFormat string

// The email formats; the platform's default is EmailFormatText.
const (
	EmailFormatText EmailFormat = "text"
	EmailFormatHTML EmailFormat = "html"
)

// emailFormats lists the known email formats.
var emailFormats = []EmailFormat{EmailFormatText, EmailFormatHTML}

// IsKnown reports whether f is one of the email formats of this package.
// It is advisory: Validate passes unknown formats to the platform.
func (f EmailFormat) IsKnown() bool { return slices.Contains(emailFormats, f) }

// validateSigningMethods checks a signer's signing methods against the
// platform's constraint
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// signer fields): a secure method list that is set names at least one method.
// The values themselves are the platform's to judge (see SecureSigningMethod).
func (s *Signer) validateSigningMethods(p *problems, field string) {
	if s.SecureSigningMethods != nil && len(s.SecureSigningMethods) == 0 {
		p.add(field+".secureSigningMethods", "must list at least one method when set (nil leaves the platform's setting)")
	}
}
