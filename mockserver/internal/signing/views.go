package signing

import (
	"cmp"
	"slices"
)

// CaseFileView is a case file as the dashboard shows it.
type CaseFileView struct {
	ID, CustomerID int64
	Title, Status  string // Status: its name, such as "pending"
	Signers        []SignerView
}

// SignerView is a signer of a CaseFileView.
type SignerView struct {
	ID                  int64
	Name, Email, Status string // Status: its name, such as "signed"
	SignOrder           int
	Actions             []string // the signer actions the state allows now (Control.SignerAction)
	// CanChangeEmail and CanResend say whether the state allows
	// Control.ChangeSignerEmail and Control.ResendSigningRequest now.
	CanChangeEmail, CanResend bool
}

// Views answers every customer's case files, newest first.
func (s *Service) Views() []CaseFileView {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	out := make([]CaseFileView, 0, len(s.cases.files))
	for _, cf := range s.cases.files {
		v := CaseFileView{ID: cf.ID, CustomerID: cf.CustomerID, Title: cf.Title, Status: caseFileStatusName(cf.Status)}
		for _, sg := range cf.Signers {
			v.Signers = append(v.Signers, SignerView{ID: sg.ID, Name: sg.Name, Email: sg.Email,
				Status: signerStatusName(sg.Status), SignOrder: sg.SignOrder, Actions: allowedActions(cf, sg),
				CanChangeEmail: requestRefusal(cf, sg, "") == nil, CanResend: resendRefusal(cf, sg) == nil})
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b CaseFileView) int { return cmp.Compare(b.ID, a.ID) })
	return out
}
