package casefiles

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/signkit/signkit-go/internal/redact"
)

// Format implements fmt.Formatter: every verb prints the signer as it
// would print without this method, but with the SSN replaced by
// "[redacted]", so that a Signer (or a CaseFile holding one) put through
// %v, %+v, %#v, %s or any other verb never shows the number.
func (s Signer) Format(f fmt.State, verb rune) {
	type signerFields Signer // the same fields, without this method
	p := signerFields(s)
	if p.SSN != "" {
		p.SSN = redact.Mark
	}
	out := fmt.Sprintf(fmt.FormatString(f, verb), p)
	if verb == 'v' && f.Flag('#') {
		out = strings.Replace(out, "casefiles.signerFields", "casefiles.Signer", 1)
	}
	_, _ = io.WriteString(f, out)
}

// LogValue implements slog.LogValuer: the signer's name, email, role and
// round, and whether an SSN is set, never the SSN itself.
func (s Signer) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("name", s.Name)}
	if s.Email != "" {
		attrs = append(attrs, slog.String("email", s.Email))
	}
	if s.Role != "" {
		attrs = append(attrs, slog.String("role", s.Role))
	}
	attrs = append(attrs, slog.Int("signOrder", s.SignOrder))
	if s.SSN != "" {
		attrs = append(attrs, slog.String("ssnType", s.SSNType), slog.String("ssn", redact.Mark))
	}
	return slog.GroupValue(attrs...)
}

// LogValue implements slog.LogValuer: the case file's title and reference
// and its signers (each as Signer.LogValue) and documents' names, without
// any SSN. A handler that encodes values as JSON would otherwise marshal
// the case file as it is sent, SSNs included.
func (cf CaseFile) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("title", cf.Title)}
	if cf.Reference != "" {
		attrs = append(attrs, slog.String("reference", cf.Reference))
	}
	signers := make([]slog.Attr, len(cf.Signers))
	for i, s := range cf.Signers {
		signers[i] = slog.Any(fmt.Sprint(i), s)
	}
	docs := make([]string, len(cf.Documents))
	for i, d := range cf.Documents {
		docs[i] = d.Name
	}
	attrs = append(attrs, slog.Attr{Key: "signers", Value: slog.GroupValue(signers...)},
		slog.Any("documents", docs))
	return slog.GroupValue(attrs...)
}

// Interface checks.
var (
	_ fmt.Formatter  = Signer{}
	_ slog.LogValuer = Signer{}
	_ slog.LogValuer = CaseFile{}
)
