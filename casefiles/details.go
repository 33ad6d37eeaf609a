package casefiles

import (
	"encoding/json"
	"strconv"
	"time"
)

// CaseFileStatus is the signing status of a case file.
type CaseFileStatus int

// The statuses of a case file
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
const (
	CaseFileNew        CaseFileStatus = 0 // created, not yet sent for signing
	CaseFilePending    CaseFileStatus = 1 // out for signing
	CaseFileRejected   CaseFileStatus = 2 // a signer rejected it
	CaseFileDeleted    CaseFileStatus = 3 // deleted
	CaseFileSigned     CaseFileStatus = 4 // every signer signed; being finalized
	CaseFileCompleted  CaseFileStatus = 5 // finalized: signed documents can be downloaded
	CaseFileFailed     CaseFileStatus = 6 // an error occurred on the service side
	CaseFileExpired    CaseFileStatus = 7 // expired before everyone signed
	CaseFileAnonymized CaseFileStatus = 8 // its personal data was removed
)

// String returns the status's name ("completed"), or "CaseFileStatus(n)"
// for a value this package does not know.
func (s CaseFileStatus) String() string {
	names := [...]string{"new", "pending", "rejected", "deleted", "signed", "completed", "failed", "expired", "anonymized"}
	if s >= 0 && int(s) < len(names) {
		return names[s]
	}
	return "CaseFileStatus(" + strconv.Itoa(int(s)) + ")"
}

// SignerStatus is the status of a signer's signing request.
type SignerStatus int

// The statuses of a signer.
const (
	SignerNew           SignerStatus = 0 // not yet activated
	SignerPending       SignerStatus = 1 // asked to sign
	SignerRejected      SignerStatus = 2 // rejected
	SignerDeleted       SignerStatus = 3 // removed from the case file
	SignerSigned        SignerStatus = 4 // signed
	SignerUndeliverable SignerStatus = 5 // emails cannot be delivered
)

// String returns the status's name ("signed"), or "SignerStatus(n)" for a
// value this package does not know.
func (s SignerStatus) String() string {
	names := [...]string{"new", "pending", "rejected", "deleted", "signed", "undeliverable"}
	if s >= 0 && int(s) < len(names) {
		return names[s]
	}
	return "SignerStatus(" + strconv.Itoa(int(s)) + ")"
}

// Details are a case file as the signing service describes it (Get, List).
// Times the platform did not give are zero.
type Details struct {
	ID        int64
	Title     string
	Status    CaseFileStatus
	Signers   []SignerDetails
	Documents []DocumentDetails

	// UserID is the user who owns the case file, CustomerID their account.
	UserID, CustomerID int64
	// Created, Activated (sent for signing), Updated and ExpireAt are the
	// case file's times.
	Created, Activated, Updated, ExpireAt time.Time
	// Completed is when the case file was completed (status 5); zero before. A
	// poller keeps its watermark on it
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files).
	Completed time.Time
	// SendAt is when a case file created with a later send time is (or
	// was) sent to its signers; zero when it was sent at once.
	SendAt time.Time
	// Language, Reference and MetaData are as the case file was created.
	Language, Reference, MetaData string
	// SensitiveData, DisableNotificationsOwner and DisableEmailAttachments
	// are the case file's settings of those names.
	SensitiveData, DisableNotificationsOwner, DisableEmailAttachments bool
	// VisibilityMode is 0 (signers see every document) or 1 (only theirs).
	VisibilityMode int
	// SignIteration is the signing round under way (0 first).
	SignIteration int
	// CCRecipients get a copy of the signed documents.
	CCRecipients []CCRecipient
	// SenderName is the sender's name the case file was created with
	// (CaseFile.SenderName); empty when none was given.
	SenderName string
	// AccessControl is the case file's own access control setting
	// (CaseFile.AccessControl). Each signer's setting is in
	// SignerDetails.AccessControl, on for every signer when this is.
	AccessControl bool

	// SignOnMeeting and FolderID are as the case file was created
	// (CaseFile's fields of those names); FolderID is 0 when the case file
	// is in no folder or the platform does not say.
	SignOnMeeting bool
	FolderID      int64
	// Extra holds the members of the case file's JSON that this package
	// does not read, as the platform sent them, so that what the platform
	// adds later is not lost; nil when there are none. Members read into
	// the fields above (signers and documents included) are not repeated
	// here: each signer and document keeps its own Extra.
	Extra map[string]json.RawMessage
}

// SignerDetails describe a signer of a case file. Email and Status come
// from the signer's signing request.
//
// The platform keeps roles and sign orders on the documents' signature lines,
// not on the signer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi),
// and a signer has one line per document they sign. Role, Roles and SignOrder
// are computed from the signer's lines, taken in the order of the documents and
// then of their lines: SignOrder is the smallest sign order among them (the
// round in which the signer is first asked to sign), Role the first non-empty
// role, and Roles every distinct non-empty role. A signer named by no line
// keeps the role and sign order the signer itself carries, if any.
type SignerDetails struct {
	ID        int64
	Name      string
	Role      string
	Email     string
	SignOrder int
	Status    SignerStatus

	// Roles lists every distinct role of the signer's signature lines.
	Roles []string
	// SigningRequestID identifies the signer's signing request.
	SigningRequestID int64
	// SSNType is the kind of identity the signer was given ("legacy",
	// "dk:cpr", ...), when the platform says.
	SSNType string

	// AccessControl, SecureSigningMethods, EnableInsecureSigning,
	// InsecureSigningMethods and EmailFormat are the settings of the
	// signer's signing request (Signer's fields of those names). The
	// platform reports AccessControl on for every signer of a case file
	// with SensitiveData, and may report the methods it applies when none
	// were chosen; values this package does not know are kept as given.
	AccessControl          bool
	SecureSigningMethods   []SecureSigningMethod
	EnableInsecureSigning  bool
	InsecureSigningMethods []InsecureSigningMethod
	EmailFormat            EmailFormat

	// OnBehalfOf, VATIN and StoreAsContact are the signer's settings of
	// those names (Signer's fields). StoreAsContact is false also when the
	// platform does not say.
	OnBehalfOf     string
	VATIN          string
	StoreAsContact bool
	// Language, the six email texts, ReminderInterval, SuccessURL and
	// FailURL are the settings of the signer's signing request (Signer's
	// fields of those names): empty texts mean the platform's templates,
	// ReminderInterval 0 no reminders. Language is the signing request's,
	// else the signer's own; empty: the case file's.
	Language              string
	EmailSubject          string
	EmailText             string
	ReminderEmailSubject  string
	ReminderEmailText     string
	CompletedEmailSubject string
	CompletedEmailText    string
	ReminderInterval      int
	SuccessURL, FailURL   string
	// ActiveAt and ExpireAt are when the signer's signing request becomes
	// active and expires (Signer's fields of those names); zero when it
	// follows the case file.
	ActiveAt, ExpireAt time.Time
	// RejectReason is the reason the signer gave when rejecting (the
	// signing request's rejectReason); empty when the signer did not
	// reject or gave none.
	RejectReason string
	// Extra holds the members of the signer's JSON that this package does
	// not read; nil when there are none. The unread members of the
	// signer's signingRequest object, if any, are kept together under the
	// key "signingRequest", as one JSON object of only those members (the
	// members read into the fields above are not repeated).
	Extra map[string]json.RawMessage
}

// DocumentDetails describe a document of a case file. ID is the integer
// id that DownloadDocument and DocumentContent take; DocumentID is only
// the key the platform stamps on the document's pages.
type DocumentDetails struct {
	ID             int64
	DocumentID     string
	Title          string
	Signable       bool
	FileSize       int64
	DocumentOrder  int
	SignatureLines []SignatureLine

	// CaseFileID is the case file the document belongs to.
	CaseFileID int64
	// Status is the platform's document status: 0 new, 1 pending,
	// 2 rejected, 3 deleted, 4 signed, 5 completed.
	Status int
	// Format is the document's format, e.g. "pdf".
	Format string
	// Created is when the document was added.
	Created time.Time

	// MetaData is the document's metaData as it was created (Document's
	// field of that name).
	MetaData string
	// Extra holds the members of the document's JSON that this package
	// does not read; nil when there are none. Members of its signature
	// lines are not kept.
	Extra map[string]json.RawMessage
}

// SignatureLine is a place on a document where one signer signs: it holds
// the signer's role and round for that document.
type SignatureLine struct {
	ID          int64
	SignerID    int64
	Role        string
	SignOrder   int
	ActivatedAt time.Time // zero until the line's round was activated

	// DocumentID is the integer id of the line's document.
	DocumentID int64
	// SignedAt is when the signer signed this line, when the platform says.
	SignedAt time.Time
}
