// Package casefiles creates complete case files in one request and follows
// them through signing: simple case file creation (signers, documents,
// signing rounds, roles, email texts and reminders with the files in one
// streamed multipart upload), the queue status check of the asynchronous
// creation job, and the signing service's case file details and document
// content (signed or original PDFs).
//
// Use it through the CaseFiles field of a signkit.Client:
//
//	contract, err := casefiles.FileUpload("contract.pdf")
//	terms := casefiles.BytesUpload("terms.pdf", termsPDF)
//	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
//		Title: "Employment contract",
//		Signers: []casefiles.Signer{
//			{Name: "Ada Employee", Email: "ada@example.com", Role: "employee"},
//			{Name: "Bob Boss", Email: "bob@example.com", Role: "employer", SignOrder: 1, ReminderInterval: 2},
//		},
//		Documents: []casefiles.Document{
//			{Name: "contract.pdf", Title: "Contract"},
//			{Name: "terms.pdf", Title: "Terms", Signable: casefiles.Bool(false)},
//		},
//	}, contract, terms)
//	result, err := client.CaseFiles.Wait(ctx, job) // result.CaseFileID, result.SigningLinks
//
// # Validation before sending
//
// CaseFile.Validate checks a case file and its uploads and reports every
// problem at once in a *ValidationError: a title, at least one signer, a
// name for every signer, at least one signable document, documents and
// uploads matched one to one by name, document roles that are signer roles,
// sign orders of 0 or more and reminder intervals of at least one day.
// Create calls it and sends nothing for an invalid case file.
// errors.Is(err, signkit.ErrValidation) holds both for these errors and for
// a 400 or 422 answered by the service (a *signkit.Error with Details).
//
// # Uploads
//
// An Upload is a name, an exact size and an opener. Create streams the
// multipart body: the part headers are computed up front, each file is
// opened when the body reaches it and closed after, and Content-Length is
// exact. The body is rebuilt from the openers for every attempt, so a
// renewal after 401 or a retry after 429 or 503 re-sends the files without
// ever holding them in memory. A file whose length differs from its Size
// fails the request rather than sending a corrupt body. A create answered
// 500, or whose connection dropped after it was sent, is not re-sent: it
// may have created the case file.
//
// # Jobs
//
// Create answers with a Job. Status checks it once; Wait polls until the
// job has completed and returns the case file id and one signing link per
// signer (deliver those yourself to signers without an email), or returns a
// *JobFailedError. Wait's polling stays under the service's 20 requests a
// minute per job and ends with its context.
//
// # Signing service
//
// Get returns the case file's Details: status (CaseFileStatus), signers with
// the status of their requests (SignerStatus), and documents with their
// DocumentID. DownloadDocument streams a document's PDF (the signed one once
// the case file is completed, or the unsigned one with Original) into an
// io.Writer; DocumentContent returns the JSON representation with the PDF
// decoded.
package casefiles
