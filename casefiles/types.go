package casefiles

import (
	"encoding/json"
	"time"
)

// CaseFile is the definition of a case file for simple creation: the "caseFile"
// object of the data part of Create. Optional fields left at their zero value
// are not sent, so the platform's defaults apply. The wire names and types are
// those of https://github.com/signkit/signkit-go/blob/main/docs/platform.md
// (Send, caseFile fields).
type CaseFile struct {
	// Title names the case file. Required, 1 to 1024 characters.
	Title string `json:"title"`
	// Signers are the people who sign. At least one, with a name.
	Signers []Signer `json:"signers"`
	// Documents are the documents of the case file, one per uploaded file.
	// At least one must be signable. Create sends the files in this order.
	Documents []Document `json:"documents"`

	// Language is the language of the case file, used for every signer
	// without a Language of their own. The platform speaks en, da, sv, nl,
	// fr, fi, no and de today; Validate passes any other value on, and the
	// platform answers 400 when it does not speak it.
	Language string `json:"language,omitempty"`
	// MetaData is free text stored with the case file and searchable in the
	// platform (a JSON document in a string, if you like).
	MetaData string `json:"metaData,omitempty"`
	// Reference is shown in the platform's web application and is a filter
	// of List.
	Reference string `json:"reference,omitempty"`
	// FolderID places the case file in a folder; 0 leaves it to the
	// platform.
	FolderID int64 `json:"folderId,omitempty"`
	// SendAt delays sending until then; nil sends at once. Sent as unix
	// seconds.
	SendAt *time.Time `json:"-"`
	// ExpireAt is when the case file expires; nil leaves the platform's
	// default. Sent as unix seconds.
	ExpireAt *time.Time `json:"-"`
	// SensitiveData makes signers prove who they are before they see the
	// documents, and sends no signed documents by email.
	SensitiveData bool `json:"sensitiveData,omitempty"`
	// SignOnMeeting marks documents signed during a meeting.
	SignOnMeeting bool `json:"signOnMeeting,omitempty"`
	// VisibilityMode is 0 (every signer sees every document) or 1 (a signer
	// sees only the documents they sign).
	VisibilityMode int `json:"visibilityMode,omitempty"`
	// DisableNotificationsOwner sends the case file's owner no
	// notifications about it.
	DisableNotificationsOwner bool `json:"disableNotificationsOwner,omitempty"`
	// DisableEmailAttachments attaches no signed documents to the
	// completion emails.
	DisableEmailAttachments bool `json:"disableEmailAttachments,omitempty"`
	// CCRecipients get a copy of the signed documents.
	CCRecipients []CCRecipient `json:"ccRecipients,omitempty"`
	// SenderName is the sender's name as the case file gives it; empty:
	// the platform's (the user's). When set, 2 to 255 characters.
	SenderName string `json:"senderName,omitempty"`
	// AccessControl turns access control on for every signer of the case file,
	// as if each Signer.AccessControl were set: each signer proves their SSN,
	// VATIN or phone number before they see the documents, so each needs one of
	// them
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
	// caseFile fields).
	AccessControl bool `json:"accessControl,omitempty"`
}

// CCRecipient is someone who gets a copy of a case file's signed documents
// without signing.
type CCRecipient struct {
	// Name is the recipient's name. Required.
	Name string `json:"name"`
	// Email is where the copy goes. Required.
	Email string `json:"email"`
	// StoreAsContact says whether the platform keeps the recipient as a
	// contact; nil leaves the platform's default (yes).
	StoreAsContact *bool `json:"storeAsContact,omitempty"`
}

// Signer is a signer of a CaseFile. Its SSN is personal data: the
// fmt verbs and log/slog print a Signer with the SSN redacted.
type Signer struct {
	// Name is the signer's name. Required.
	Name string `json:"name"`
	// Email is where the signing request goes. Optional: without it no
	// email is sent, and the integrator delivers the signing link (from
	// Result.SigningLinks) by other means.
	Email string `json:"email,omitempty"`
	// Role is matched against Document.Roles. Optional; when set, at least
	// 3 characters: letters, digits, spaces, commas, underscores and
	// hyphens, starting with a letter or digit and not ending with a space.
	Role string `json:"role,omitempty"`
	// SignOrder is the signer's round: 0 signs first, then 1, 2 and so on.
	// Signers of the same round sign in parallel. Omitted when 0.
	SignOrder int `json:"signOrder,omitempty"`
	// EmailSubject and EmailText are the text of the signing request email.
	// Optional (the platform's template is used when empty); at least 5
	// characters when set, like every email text.
	EmailSubject string `json:"emailSubject,omitempty"`
	EmailText    string `json:"emailText,omitempty"`
	// ReminderEmailSubject and ReminderEmailText are the text of the
	// reminder email. Optional.
	ReminderEmailSubject string `json:"reminderEmailSubject,omitempty"`
	ReminderEmailText    string `json:"reminderEmailText,omitempty"`
	// CompletedEmailSubject and CompletedEmailText are the text of the
	// email sent when the case file is completed. Optional.
	CompletedEmailSubject string `json:"completedEmailSubject,omitempty"`
	CompletedEmailText    string `json:"completedEmailText,omitempty"`
	// ReminderInterval is the number of days between reminders (1 every
	// day, 2 every second day). 0 sends no reminder and is omitted.
	ReminderInterval int `json:"reminderInterval,omitempty"`

	// OnBehalfOf is the company or organisation the signer signs for.
	OnBehalfOf string `json:"onBehalfOf,omitempty"`
	// SSNType says what SSN holds. The platform knows "legacy" (its
	// default), "dk:cpr", "se:pin", "no:nin", "be:nrn", "fi:pic",
	// "google:oidc", "microsoft:oidc" and "sms" (then SSN is a phone
	// number) today; Validate passes any other value on, for the platform
	// to judge.
	SSNType string `json:"ssnType,omitempty"`
	// SSN is the signer's social security number (or phone number), which
	// the platform checks when AccessControl is set or the signer signs
	// with an electronic ID. It is never printed by this package.
	SSN string `json:"socialSecurityNumberPlain,omitempty"`
	// VATIN is the VAT identification number of the signer's company.
	VATIN string `json:"vatin,omitempty"`
	// AccessControl makes the signer prove SSN, VATIN or phone before they
	// see the documents, so it needs one of them. The platform turns it on
	// for every signer of a case file with SensitiveData or the case
	// file's AccessControl, whatever this field says.
	AccessControl bool `json:"accessControl,omitempty"`
	// Language is the signer's language (as CaseFile.Language); empty:
	// the case file's.
	Language string `json:"language,omitempty"`
	// SuccessURL and FailURL are where the signer's browser goes after
	// signing, or after signing failed or was rejected. Absolute URLs of at
	// least 5 characters.
	SuccessURL string `json:"successUrl,omitempty"`
	FailURL    string `json:"failUrl,omitempty"`
	// ActiveAt is when the signer's request becomes active; nil: with the
	// case file. Sent as unix seconds.
	ActiveAt *time.Time `json:"-"`
	// ExpireAt is when the signer's request expires; nil: with the case
	// file. Sent as unix seconds.
	ExpireAt *time.Time `json:"-"`
	// StoreAsContact says whether the platform keeps the signer as a
	// contact; nil leaves the platform's default (yes).
	StoreAsContact *bool `json:"storeAsContact,omitempty"`

	// SecureSigningMethods are the electronic IDs the signer may sign
	// with, for example []SecureSigningMethod{SecureMitID}. They override
	// the case file's and the customer's settings. nil leaves those
	// settings; when set, the list names at least one method.
	SecureSigningMethods []SecureSigningMethod `json:"secureSigningMethods,omitempty"`
	// EnableInsecureSigning lets the signer sign with a touch signature
	// (InsecureSigningMethods) instead of an electronic ID. The platform's
	// default is false.
	EnableInsecureSigning bool `json:"enableInsecureSigning,omitempty"`
	// InsecureSigningMethods are the touch signatures the signer may use
	// when EnableInsecureSigning is set; empty: the company's setting.
	InsecureSigningMethods []InsecureSigningMethod `json:"insecureSigningMethods,omitempty"`
	// EmailFormat is the format of the emails sent to the signer:
	// EmailFormatText (the platform's default) or EmailFormatHTML.
	EmailFormat EmailFormat `json:"emailFormat,omitempty"`
}

// Document is a document of a CaseFile.
type Document struct {
	// Name must equal the Name of exactly one Upload passed to Create.
	Name string `json:"name"`
	// Title is the document's title as signers see it. Required, 1 to 1024
	// characters.
	Title string `json:"title"`
	// Roles are the signer roles that sign the document; each must be the
	// Role of some signer. Empty: every signer signs it.
	Roles []string `json:"roles,omitempty"`
	// Signable says whether the document is signed. nil (the default)
	// means signable; signkit.Ptr(false) makes it an attachment that is
	// not signed.
	Signable *bool `json:"signable,omitempty"`
	// DocumentOrder is the document's position in the case file (0
	// first); nil: its position in CaseFile.Documents. Set it with
	// signkit.Ptr.
	DocumentOrder *int `json:"documentOrder,omitempty"`
	// MetaData is free text stored with the document and searchable in the
	// platform.
	MetaData string `json:"metaData,omitempty"`
}

// Bool returns a pointer to b, for Document.Signable and the StoreAsContact
// fields.
//
// Deprecated: use signkit.Ptr, which serves every package and type:
// signkit.Ptr(false).
func Bool(b bool) *bool { return &b }

// Int returns a pointer to n, for Document.DocumentOrder.
//
// Deprecated: use signkit.Ptr: signkit.Ptr(2).
func Int(n int) *int { return &n }

// signable reports whether d is signed (nil means yes).
func (d *Document) signable() bool { return d.Signable == nil || *d.Signable }

// MarshalJSON encodes the case file as the platform takes it: SendAt and
// ExpireAt as integer unix seconds, omitted when nil.
func (cf CaseFile) MarshalJSON() ([]byte, error) {
	type plain CaseFile
	return json.Marshal(struct {
		plain
		SendAt   *unixTime `json:"sendAt,omitempty"`
		ExpireAt *unixTime `json:"expireAt,omitempty"`
	}{plain(cf), toUnix(cf.SendAt), toUnix(cf.ExpireAt)})
}

// UnmarshalJSON decodes what MarshalJSON encodes; sendAt and expireAt may
// also be RFC 3339 strings.
func (cf *CaseFile) UnmarshalJSON(b []byte) error {
	type plain CaseFile
	var w struct {
		*plain
		SendAt   *unixTime `json:"sendAt"`
		ExpireAt *unixTime `json:"expireAt"`
	}
	w.plain = (*plain)(cf)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	cf.SendAt, cf.ExpireAt = fromUnix(w.SendAt), fromUnix(w.ExpireAt)
	return nil
}

// MarshalJSON encodes the signer as the platform takes it: ActiveAt and
// ExpireAt as integer unix seconds, omitted when nil.
func (s Signer) MarshalJSON() ([]byte, error) {
	type plain Signer
	return json.Marshal(struct {
		plain
		ActiveAt *unixTime `json:"activeAt,omitempty"`
		ExpireAt *unixTime `json:"expireAt,omitempty"`
	}{plain(s), toUnix(s.ActiveAt), toUnix(s.ExpireAt)})
}

// UnmarshalJSON decodes what MarshalJSON encodes; activeAt and expireAt may
// also be RFC 3339 strings.
func (s *Signer) UnmarshalJSON(b []byte) error {
	type plain Signer
	var w struct {
		*plain
		ActiveAt *unixTime `json:"activeAt"`
		ExpireAt *unixTime `json:"expireAt"`
	}
	w.plain = (*plain)(s)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	s.ActiveAt, s.ExpireAt = fromUnix(w.ActiveAt), fromUnix(w.ExpireAt)
	return nil
}
