package casefiles

import "strconv"

// CaseFile is the definition of a case file for simple creation: the
// "caseFile" object of the data part of Create.
type CaseFile struct {
	// Title names the case file. Required.
	Title string `json:"title"`
	// Signers are the people who sign. At least one, with a name.
	Signers []Signer `json:"signers"`
	// Documents are the documents of the case file, one per uploaded file.
	// At least one must be signable.
	Documents []Document `json:"documents"`
}

// Signer is a signer of a CaseFile.
type Signer struct {
	// Name is the signer's name. Required.
	Name string `json:"name"`
	// Email is where the signing request goes. Optional: without it no
	// email is sent, and the integrator delivers the signing link (from
	// Result.SigningLinks) by other means.
	Email string `json:"email,omitempty"`
	// Role is matched against Document.Roles. Optional.
	Role string `json:"role,omitempty"`
	// SignOrder is the signer's round: 0 signs first, then 1, 2 and so on.
	// Signers of the same round sign in parallel. Omitted when 0.
	SignOrder int `json:"signOrder,omitempty"`
	// EmailSubject and EmailText are the text of the signing request email.
	// Optional; the service's default text is used when empty.
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
}

// Document is a document of a CaseFile.
type Document struct {
	// Name must equal the Name of exactly one Upload passed to Create.
	Name string `json:"name"`
	// Title is the document's title as signers see it.
	Title string `json:"title"`
	// Roles are the signer roles that sign the document; each must be the
	// Role of some signer. Empty: every signer signs it.
	Roles []string `json:"roles,omitempty"`
	// Signable says whether the document is signed. nil (the default)
	// means signable; Bool(false) makes it an attachment that is not
	// signed.
	Signable *bool `json:"signable,omitempty"`
}

// Bool returns a pointer to b, for Document.Signable.
func Bool(b bool) *bool { return &b }

// signable reports whether d is signed (nil means yes).
func (d *Document) signable() bool { return d.Signable == nil || *d.Signable }

// Job identifies the asynchronous job that Create started. Both fields are
// needed to ask for its status.
type Job struct {
	UUID        string `json:"uuid"`
	PayloadHash string `json:"payloadHash"`
}

// JobState is the state of a creation job.
type JobState string

// The states of a creation job.
const (
	JobPending    JobState = "pending"    // accepted, not yet started
	JobProcessing JobState = "processing" // running
	JobCompleted  JobState = "completed"  // the case file exists; see JobStatus.Result
	JobFailed     JobState = "failed"     // no case file; see JobStatus.ErrorMessage
)

// JobStatus is the answer of the queue status check.
type JobStatus struct {
	// State is the job's state.
	State JobState
	// Result is set once the job has completed.
	Result *Result
	// ErrorMessage says why a failed job failed.
	ErrorMessage string
}

// Result is what a completed job created.
type Result struct {
	// CaseFileID identifies the case file in the signing service (Get).
	CaseFileID int64
	// SigningLinks has one signing link per signer.
	SigningLinks []SigningLink
}

// SigningLink is the link behind which one signer signs. Deliver it
// yourself to signers created without an email.
type SigningLink struct {
	Name, Role, Email string
	URL               string // the signing page
}

// CaseFileStatus is the signing status of a case file.
type CaseFileStatus int

// The statuses of a case file.
const (
	CaseFileNew       CaseFileStatus = 0 // created, not yet sent for signing
	CaseFilePending   CaseFileStatus = 1 // out for signing
	CaseFileRejected  CaseFileStatus = 2 // a signer rejected it
	CaseFileDeleted   CaseFileStatus = 3 // deleted
	CaseFileSigned    CaseFileStatus = 4 // every signer signed; being finalized
	CaseFileCompleted CaseFileStatus = 5 // finalized: signed documents can be downloaded
	CaseFileFailed    CaseFileStatus = 6 // an error occurred on the service side
	CaseFileExpired   CaseFileStatus = 7 // expired before everyone signed
)

// String returns the status's name ("completed"), or "CaseFileStatus(n)"
// for a value this package does not know.
func (s CaseFileStatus) String() string {
	switch s {
	case CaseFileNew:
		return "new"
	case CaseFilePending:
		return "pending"
	case CaseFileRejected:
		return "rejected"
	case CaseFileDeleted:
		return "deleted"
	case CaseFileSigned:
		return "signed"
	case CaseFileCompleted:
		return "completed"
	case CaseFileFailed:
		return "failed"
	case CaseFileExpired:
		return "expired"
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
	switch s {
	case SignerNew:
		return "new"
	case SignerPending:
		return "pending"
	case SignerRejected:
		return "rejected"
	case SignerDeleted:
		return "deleted"
	case SignerSigned:
		return "signed"
	case SignerUndeliverable:
		return "undeliverable"
	}
	return "SignerStatus(" + strconv.Itoa(int(s)) + ")"
}

// Details are a case file as the signing service describes it.
type Details struct {
	ID        int64
	Title     string
	Status    CaseFileStatus
	Signers   []SignerDetails
	Documents []DocumentDetails
}

// SignerDetails describe a signer of a case file. Email and Status come
// from the signer's signing request.
type SignerDetails struct {
	ID        int64
	Name      string
	Role      string
	Email     string
	SignOrder int
	Status    SignerStatus
}

// DocumentDetails describe a document of a case file. DocumentID is the
// identifier that DownloadDocument and DocumentContent take.
type DocumentDetails struct {
	ID         int64
	DocumentID string
	Title      string
	Signable   bool
	FileSize   int64
}
