// Package casefiles creates complete case files in one request and follows them
// through signing: simple case file creation (signers, documents, signing
// rounds, roles, email texts, reminders and the platform's other case file,
// signer and document settings, with the files in one streamed multipart
// upload), the queue status check of the asynchronous creation job, and the
// signing service's case files: details, listing, deletion and document content
// (signed or original PDFs). The wire is described in
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md.
//
// Use it through the CaseFiles field of a signkit.Client:
//
//	contract, err := casefiles.FileUpload("contract.pdf")
//	terms := casefiles.BytesUpload("terms.pdf", termsPDF)
//	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
//		Title:     "Employment contract",
//		Reference: "HR-2026-17",
//		Signers: []casefiles.Signer{
//			{Name: "Ada Employee", Email: "ada@example.com", Role: "employee"},
//			{Name: "Bob Boss", Email: "bob@example.com", Role: "employer", SignOrder: 1, ReminderInterval: 2},
//		},
//		Documents: []casefiles.Document{
//			{Name: "contract.pdf", Title: "Contract", Roles: []string{"employee", "employer"}},
//			{Name: "terms.pdf", Title: "Terms", Signable: signkit.Ptr(false)},
//		},
//	}, contract, terms)
//	result, err := client.CaseFiles.Wait(ctx, job) // result.CaseFileID, result.SigningLinks
//
// # Signing methods
//
// A signer's SecureSigningMethods name the electronic IDs they may sign
// with, overriding the case file's and the customer's settings;
// EnableInsecureSigning with InsecureSigningMethods allows touch
// signatures; EmailFormat chooses text or HTML emails. The case file's
// details give them back in SignerDetails:
//
//	casefiles.Signer{
//		Name: "Ada Employee", Email: "ada@example.com",
//		SecureSigningMethods: []casefiles.SecureSigningMethod{casefiles.SecureMitID},
//		EmailFormat:          casefiles.EmailFormatHTML,
//	}
//
// A case file with SensitiveData makes every signer prove who they are
// before they see the documents: the platform turns AccessControl on for
// each of them.
//
// # Validation before sending
//
// [CaseFile.Validate] checks a case file and its uploads against the
// platform's rules and reports every problem at once in a
// [*ValidationError]: a title (at most 1024 characters), at least one signer,
// a name for every signer, roles of the platform's pattern, email texts of
// at least 5 characters, absolute success and fail URLs, a sender name of
// 2 to 255 characters when set, a non-empty list of secure signing methods
// when set, times the platform's unix seconds can say, at least one signable
// document, a title for every document, documents and uploads matched one
// to one by name, document roles that are signer roles, sign orders of 0
// or more and reminder intervals of at least one day. [Client.Create] calls it and
// sends nothing for an invalid case file. Values from lists the platform
// extends (languages, SSN types, signing methods, email formats) are left
// to the platform, which answers a 400 naming the values it accepts.
// errors.Is(err,
// signkit.ErrValidation) holds both for these errors and for a 400 or 422
// answered by the service (a *signkit.Error with Details).
//
// A Signer's SSN is personal data: the fmt verbs and log/slog print a
// Signer (and a CaseFile) with the SSN redacted, and no validation problem
// quotes it.
//
// # Uploads
//
// An Upload is a name, an exact size and an opener. Create sends the data
// part, a text field holding {"caseFile":{...}}, then the files in the
// order of CaseFile.Documents, whatever the order in which the uploads are
// passed. It streams the multipart body: the part headers are computed up
// front, each file is opened when the body reaches it and closed after,
// and Content-Length is exact. The body is rebuilt from the openers for
// every attempt, so a renewal after 401 or a re-send re-sends the files
// without ever holding them in memory. A file whose length differs from
// its Size fails the request rather than sending a corrupt body.
//
// # Re-sends
//
// The platform refuses a duplicate payload (see below), so Create is re-sent
// after a 429, 502, 503, 504 or a lost connection (not after a 500): if the
// first copy had been accepted, the second ends aborted_duplicated, Job.Resent
// is set, and Wait follows the first job and returns its case file. When every
// attempt failed, the error matches signkit.ErrOutcomeUnknown or
// signkit.ErrRateLimited: list the case files (List, by title) before sending
// again. The queue status check is read-only and re-sent like a GET. The whole
// table is https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
//
// # Jobs
//
// Create answers with a Job. Status checks it once and gives the whole
// queue record (state, result, retries, times); Wait polls until the job
// has completed and returns the case file id and one signing link per
// signer (deliver those yourself to signers without an email), or returns
// a *JobFailedError. Wait's polling stays under the service's 20 requests
// a minute per job and ends with its context. Jobs expire on the platform:
// Status and Wait on a job it no longer knows return an error matching
// signkit.ErrNotFound that says so. Store Wait's Result (the case file id)
// at once, not the Job.
//
// The platform refuses duplicates: the same case file with the same files
// sent again by the same user gets a job that ends aborted_duplicated, and
// no second case file or email. Wait then returns a *DuplicateError, for
// which errors.Is(err, ErrDuplicate) holds and whose FirstUUID is the first
// job's uuid when the platform names it:
//
//	result, err := client.CaseFiles.Wait(ctx, job)
//	var dup *casefiles.DuplicateError
//	if errors.As(err, &dup) {
//		// already sent as job dup.FirstUUID
//	}
//
// # Signing service
//
// Get returns the case file's Details: status (CaseFileStatus), owner,
// times and settings, signers with the status of their requests
// (SignerStatus), and documents with their signature lines. The platform
// keeps each signer's role and round on the signature lines; Get fills
// SignerDetails.Role and SignOrder from them (the rule is on
// SignerDetails). List returns one page of the user's case files, newest
// first, filtered by ListOptions; All iterates over every page:
//
//	for d, err := range client.CaseFiles.All(ctx, &casefiles.ListOptions{Reference: "HR-2026-17"}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(d.ID, d.Title, d.Status)
//	}
//
// To poll for finished case files as the vendor's guide does, list with
// Status 5 sorted by "completed" and CompletedAfter, and keep
// Details.Completed as a watermark together with the ids handled in its
// second (examples/poller shows the whole loop).
//
// SignerDetails.RejectReason is the reason a rejecting signer gave, and
// Errors returns why a case file failed (status CaseFileFailed). Members of
// the platform's answer that this package does not read are kept in the
// Extra maps of Details, SignerDetails and DocumentDetails.
//
// # Signing requests
//
// Every signer has a signing request (SignerDetails.SigningRequestID).
// UpdateSigningRequest changes its email, texts, URLs, reminders or
// signing settings (a SigningRequestUpdate sends only the fields set);
// after a bounced email, change it and call ResendSigningRequest to send
// the request again. SigningRequestLink fetches the signer's link:
//
//	err := client.CaseFiles.UpdateSigningRequest(ctx, signer.SigningRequestID,
//		&casefiles.SigningRequestUpdate{Email: signkit.Ptr("ada@example.org")})
//	err = client.CaseFiles.ResendSigningRequest(ctx, signer.SigningRequestID)
//
// A resend sends an email: it is not re-sent after an unknown outcome
// (signkit.ErrOutcomeUnknown).
//
// Delete deletes a case file that is not completed. DownloadDocument
// streams a document's PDF (the signed one once the case file is
// completed, with a page listing who signed and when, or the unsigned one
// with Original) into an io.Writer; DocumentContent returns the JSON
// representation with the PDF decoded. Both take the document's integer
// DocumentDetails.ID; its string DocumentID is only a key stamped on the
// pages.
package casefiles
