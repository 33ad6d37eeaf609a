package signing

import (
	"cmp"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ring"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// maxEmails bounds the outbox; the oldest emails are dropped first.
const MaxEmails = 10_000

// Email is one message in the outbox, the shape of GET /mock/emails.
type Email struct {
	To          string    `json:"to"`
	Subject     string    `json:"subject"`
	Text        string    `json:"text"`
	SigningLink string    `json:"signingLink,omitempty"`
	At          time.Time `json:"at"`
}

// EmailTexts are the texts a Send definition gives a signer; an empty
// field falls back to the default text.
type EmailTexts struct {
	RequestSubject, RequestText     string
	ReminderSubject, ReminderText   string
	CompletedSubject, CompletedText string
}

// outbox holds the last maxEmails emails the mock has "sent", oldest first.
type outbox = ring.Ring[Email]

func newOutbox() *outbox { return ring.New[Email](MaxEmails) }

// SendEmail puts an email to one recipient in the outbox, dated now.
// signingLink may be empty.
func (s *state) SendEmail(to, subject, text, signingLink string) {
	s.sign.outbox.Add(Email{To: to, Subject: subject, Text: text, SigningLink: signingLink, At: s.Now().UTC()})
}

// CtlEmails is GET /mock/emails: {"items":[{"to","subject","text","signingLink","at"}]}.
// It takes no query parameter: one is a 400 that names it.
func (s *Control) CtlEmails(w http.ResponseWriter, r *http.Request) error {
	if err := wire.OnlyParams(r); err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": s.sign.outbox.List()})
	return nil
}

// signerEmail picks the subject and text of a signer's email of one kind
// ("request", "reminder", "completed"): the signer's own texts where the
// Send definition gave them, else defaults naming the case file and, for
// requests and reminders, the signing link.
func signerEmail(kind string, cf *CaseFile, sg *Signer, link string) (subject, text string) {
	t := sg.Texts
	switch kind {
	case "reminder":
		subject = cmp.Or(t.ReminderSubject, "Reminder: please sign \""+cf.Title+"\"")
		text = cmp.Or(t.ReminderText, "Dear "+sg.Name+",\n\nthis is a reminder that \""+cf.Title+
			"\" is waiting for your signature. Open the signing page to sign:\n"+link)
	case "completed":
		subject = cmp.Or(t.CompletedSubject, "\""+cf.Title+"\" has been signed by everyone")
		text = cmp.Or(t.CompletedText, "Dear "+sg.Name+",\n\nevery signer has signed \""+cf.Title+
			"\". The signed documents are ready:\n"+link)
	default:
		subject = cmp.Or(t.RequestSubject, "Please sign \""+cf.Title+"\"")
		text = cmp.Or(t.RequestText, "Dear "+sg.Name+",\n\nyou are asked to sign \""+cf.Title+
			"\". Open the signing page to read and sign the documents:\n"+link)
	}
	return subject, text
}

// ccEmail is the email a CC recipient gets when the case file completes.
func ccEmail(cf *CaseFile, cc CCRecipient) (subject, text string) {
	subject = "Copy: \"" + cf.Title + "\" has been signed by everyone"
	text = "Dear " + cmp.Or(cc.Name, cc.Email) + ",\n\nyou receive this copy because you are a CC recipient of \"" +
		cf.Title + "\". Every signer has signed it."
	return subject, text
}
