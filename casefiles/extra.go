package casefiles

import (
	"encoding/json"
	"reflect"

	"github.com/signkit/signkit-go/internal/jsonmembers"
)

// The decoders of the signing service's case file keep the members they do
// not read (Details.Extra, SignerDetails.Extra, DocumentDetails.Extra), so
// that what the platform adds later reaches the caller. A member counts as
// read when a field of the wire type below carries its name; names match
// without regard to case, as encoding/json matches them.

// The member names each wire type reads.
var (
	caseFileNames       = jsonmembers.Of(reflect.TypeFor[wireCaseFile]())
	signerNames         = jsonmembers.Of(reflect.TypeFor[wireSigner]())
	signingRequestNames = jsonmembers.Of(reflect.TypeFor[wireSigningRequest]())
	documentNames       = jsonmembers.Of(reflect.TypeFor[wireDocument]())
)

// UnmarshalJSON implements json.Unmarshaler, keeping the unread members.
func (w *wireCaseFile) UnmarshalJSON(b []byte) error {
	type plain wireCaseFile
	if err := json.Unmarshal(b, (*plain)(w)); err != nil {
		return err
	}
	w.extra = jsonmembers.Unknown(b, caseFileNames)
	return nil
}

// UnmarshalJSON implements json.Unmarshaler, keeping the unread members of
// the signer and, under "signingRequest", those of its signing request.
func (s *wireSigner) UnmarshalJSON(b []byte) error {
	type plain wireSigner
	if err := json.Unmarshal(b, (*plain)(s)); err != nil {
		return err
	}
	s.extra = jsonmembers.Unknown(b, signerNames)
	if r := s.SigningRequest; r != nil && len(r.extra) > 0 {
		sub, err := json.Marshal(r.extra)
		if err != nil {
			return err
		}
		if s.extra == nil {
			s.extra = map[string]json.RawMessage{}
		}
		s.extra["signingRequest"] = sub
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler, keeping the unread members.
func (r *wireSigningRequest) UnmarshalJSON(b []byte) error {
	type plain wireSigningRequest
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	r.extra = jsonmembers.Unknown(b, signingRequestNames)
	return nil
}

// UnmarshalJSON implements json.Unmarshaler, keeping the unread members.
func (doc *wireDocument) UnmarshalJSON(b []byte) error {
	type plain wireDocument
	if err := json.Unmarshal(b, (*plain)(doc)); err != nil {
		return err
	}
	doc.extra = jsonmembers.Unknown(b, documentNames)
	return nil
}

// fill copies the signing request's texts and settings to sd; the
// signing request's language wins over the signer's own.
func (r *wireSigningRequest) fill(sd *SignerDetails) {
	sd.EmailSubject, sd.EmailText = r.EmailSubject, r.EmailText
	sd.ReminderEmailSubject, sd.ReminderEmailText = r.ReminderEmailSubject, r.ReminderEmailText
	sd.CompletedEmailSubject, sd.CompletedEmailText = r.CompletedEmailSubject, r.CompletedEmailText
	sd.ReminderInterval, sd.SuccessURL, sd.FailURL = int(r.ReminderInterval), r.SuccessURL, r.FailURL
	sd.RejectReason, sd.ActiveAt, sd.ExpireAt = r.RejectReason, r.ActiveAt.time(), r.ExpireAt.time()
	if r.Language != "" {
		sd.Language = r.Language
	}
}

// Interface checks.
var (
	_ json.Unmarshaler = (*wireCaseFile)(nil)
	_ json.Unmarshaler = (*wireSigner)(nil)
	_ json.Unmarshaler = (*wireSigningRequest)(nil)
	_ json.Unmarshaler = (*wireDocument)(nil)
)
