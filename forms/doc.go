// Package forms is the client of the forms service: web forms made of
// sections and fields, their lifecycle (draft, active, archived), prefilled
// personalised links, completed submissions with their answers, and the
// files uploaded through FILE fields.
//
// Use it through the Forms field of a signkit.Client:
//
//	form, err := client.Forms.Create(ctx, &forms.Form{
//		Name: "Onboarding",
//		Sections: []forms.Section{{
//			Title: "You",
//			Fields: []forms.Field{
//				{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
//				{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
//			},
//		}},
//	})
//	form, err = client.Forms.Publish(ctx, form.ExternalID) // form.PublicURL is live
//	link, err := client.Forms.CreateRequestFor(ctx, form, &forms.PrefillRequest{
//		Answers: map[string]forms.PrefillAnswer{"email": {Value: "ada@example.com"}}, // locked
//	})
//
// # Lifecycle
//
// [Client.Create] makes a DRAFT form, not yet public. [Client.Publish] makes it ACTIVE at its
// PublicURL. Update of an ACTIVE form creates a new DRAFT version under the
// same ExternalID while the live version keeps serving; Publish again to
// make it live. Archive closes the public URL to new submissions; existing
// submissions stay retrievable.
//
// CreateAndPublish and UpdateAndPublish do the same and publish in the same
// call (?publish=true).
//
// # Prefilled requests
//
// CreateRequest sends the specification's shape, keyed by field name;
// CreateRequestV2 sends the platform's current one, keyed by section slug
// with one entry per instance of the section (a list of one for a section
// that is not repeatable). RequestAnswers reads what was submitted through
// a request, once a submission was made through it.
//
// # Validation before sending
//
// Form.Validate checks a form against the service's contract and reports
// every problem at once in a *ValidationError (field names present and
// unique, a type on every field, CHOICE options, ".email" mappings of type EMAIL,
// conditions and merge fields referencing earlier fields, the merge fields
// of CaseFileTitleTemplate). Create and Update call it and send nothing for
// an invalid form. Prefilled requests, list options and empty ids are
// checked the same way; PrefillRequest.ValidateFor and CreateRequestFor
// also check the answer keys against the form's field names.
//
// Validate checks structure, not vocabulary: a field type this package does
// not know (the vendor's form builder has more, such as a personal id or a
// business id) passes, Get and Update give it back unchanged, and its
// answers read as text (FieldType.IsKnown tells them apart). Members of a
// form, section or field that this package does not model are kept in the
// Extra maps (Form.Extra, Section.Extra, Field.Extra) and sent back.
// errors.Is(err, signkit.ErrValidation) holds both for these errors and
// for a 400 or 422 answered by the service (a *signkit.Error with Details).
//
// # Submissions
//
// ListSubmissions reads one page; AllSubmissions iterates over every
// submission in ascending order with the largest page size:
//
//	for s, err := range client.Forms.AllSubmissions(ctx, form.ExternalID, nil) {
//		if err != nil {
//			return err
//		}
//		answers, err := client.Forms.Answers(ctx, form.ExternalID, s.SubmissionID)
//		...
//	}
//
// A repeatable section (Section.MultipleEntries) answers per instance, in
// AnswerSection.Instances; a repeatable field answers a list, in
// Answer.Values. Answers.Get finds an answer by field name (for a field in
// a repeatable section, the first instance's); Answers.GetAll returns one
// per instance. Answer has typed accessors
// (String, Int, Float, Bool, Time). Files lists a case file's attachments
// and DownloadFile streams one into an io.Writer; it sends the access token
// only to the forms service's host.
//
// # Re-sends
//
// Reads (Get, the lists, Answers, Files) and Update are re-sent after a
// connection error, 429, 502, 503 or 504. The POSTs (Create, CreateAndPublish,
// Publish, Archive, CreateRequest and its variants) are re-sent only when the
// connection failed before the request was written: a second copy would make a
// second form or prefill request. After a 502, 503, 504 or a connection lost
// once the request was written, their error matches signkit.ErrOutcomeUnknown
// (the form may exist: list or get it before you send again); after a 429,
// signkit.ErrRateLimited, with the wait in signkit.Error.RetryAfter. The table
// is https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
package forms
