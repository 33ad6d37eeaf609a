package casefiles

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/signkit/signkit-go/internal/transport"
)

// wireCaseFile is the signing service's case file
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
// The decoder is tolerant: times may be unix seconds, numbers in strings or RFC
// 3339; booleans may be 0 and 1; a signer's email and status are read from its
// signing request, or from the signer itself when the request is absent.
type wireCaseFile struct {
	ID                        int64          `json:"id"`
	Title                     string         `json:"title"`
	Status                    CaseFileStatus `json:"status"`
	UserID                    flexInt        `json:"userId"`
	CustomerID                flexInt        `json:"customerId"`
	Created                   *unixTime      `json:"created"`
	Activated                 *unixTime      `json:"activated"`
	Updated                   *unixTime      `json:"updated"`
	ExpireAt                  *unixTime      `json:"expireAt"`
	Completed                 *unixTime      `json:"completed"`
	SendAt                    *unixTime      `json:"sendAt"`
	Language                  string         `json:"language"`
	Reference                 string         `json:"reference"`
	MetaData                  string         `json:"metaData"`
	SensitiveData             flexBool       `json:"sensitiveData"`
	DisableNotificationsOwner flexBool       `json:"disableNotificationsOwner"`
	DisableEmailAttachments   flexBool       `json:"disableEmailAttachments"`
	VisibilityMode            flexInt        `json:"visibilityMode"`
	SignIteration             flexInt        `json:"signIteration"`
	CCRecipients              []CCRecipient  `json:"ccRecipients"`
	SenderName                string         `json:"senderName"`
	AccessControl             flexBool       `json:"accessControl"`
	Signers                   []wireSigner   `json:"signers"`
	Documents                 []wireDocument `json:"documents"`
	SignOnMeeting             flexBool       `json:"signOnMeeting"`
	FolderID                  flexInt        `json:"folderId"`

	extra map[string]json.RawMessage // the members not read (extra.go)
}

type wireSigner struct {
	ID             int64               `json:"id"`
	Name           string              `json:"name"`
	Role           string              `json:"role"`
	SignOrder      int                 `json:"signOrder"`
	Email          string              `json:"email"`
	Status         SignerStatus        `json:"status"`
	SSNType        string              `json:"ssnType"`
	SigningRequest *wireSigningRequest `json:"signingRequest"`
	OnBehalfOf     string              `json:"onBehalfOf"`
	VATIN          string              `json:"vatin"`
	StoreAsContact flexBool            `json:"storeAsContact"`
	Language       string              `json:"language"`

	extra map[string]json.RawMessage // the members not read (extra.go)
}

// wireSigningRequest is a signer's signing request with the settings the case
// file was created with
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
type wireSigningRequest struct {
	ID                     int64                   `json:"id"`
	Status                 SignerStatus            `json:"status"`
	Email                  string                  `json:"email"`
	AccessControl          flexBool                `json:"accessControl"`
	SecureSigningMethods   []SecureSigningMethod   `json:"secureSigningMethods"`
	EnableInsecureSigning  flexBool                `json:"enableInsecureSigning"`
	InsecureSigningMethods []InsecureSigningMethod `json:"insecureSigningMethods"`
	EmailFormat            EmailFormat             `json:"emailFormat"`
	Language               string                  `json:"language"`
	EmailSubject           string                  `json:"emailSubject"`
	EmailText              string                  `json:"emailText"`
	ReminderEmailSubject   string                  `json:"reminderEmailSubject"`
	ReminderEmailText      string                  `json:"reminderEmailText"`
	CompletedEmailSubject  string                  `json:"completedEmailSubject"`
	CompletedEmailText     string                  `json:"completedEmailText"`
	ReminderInterval       flexInt                 `json:"reminderInterval"`
	SuccessURL             string                  `json:"successUrl"`
	FailURL                string                  `json:"failUrl"`
	RejectReason           string                  `json:"rejectReason"`
	ActiveAt               *unixTime               `json:"activeAt"`
	ExpireAt               *unixTime               `json:"expireAt"`

	extra map[string]json.RawMessage // the members not read (extra.go)
}

type wireDocument struct {
	ID             int64       `json:"id"`
	CaseFileID     flexInt     `json:"caseFileId"`
	DocumentID     string      `json:"documentId"`
	DocumentOrder  flexInt     `json:"documentOrder"`
	Title          string      `json:"title"`
	Signable       *flexBool   `json:"signable"`
	Status         flexInt     `json:"status"`
	FileSize       flexInt     `json:"fileSize"`
	Format         string      `json:"format"`
	Created        *unixTime   `json:"created"`
	SignatureLines []wireSLine `json:"signatureLines"`
	MetaData       string      `json:"metaData"`

	extra map[string]json.RawMessage // the members not read (extra.go)
}

type wireSLine struct {
	ID          int64     `json:"id"`
	SignerID    int64     `json:"signerId"`
	DocumentID  flexInt   `json:"documentId"`
	Role        string    `json:"role"`
	SignOrder   flexInt   `json:"signOrder"`
	ActivatedAt *unixTime `json:"activatedAt"`
	SignedAt    *unixTime `json:"signedAt"`
}

// Get returns the details of a case file from the signing service: its
// status, its signers with the status of their signing requests and their
// roles and rounds (from the documents' signature lines), and its documents
// with the integer ID that DownloadDocument takes.
func (c *Client) Get(ctx context.Context, caseFileID int64) (*Details, error) {
	if caseFileID <= 0 {
		return nil, invalid("request", Problem{Field: "caseFileID", Message: "must be positive"})
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    c.caseFileURL(caseFileID),
		Auth:   transport.Bearer,
	}
	var w wireCaseFile
	if err := c.t().Do(ctx, req, &w); err != nil {
		return nil, fmt.Errorf("casefiles: get case file %d: %w", caseFileID, err)
	}
	return w.details(), nil
}

// caseFileURL is {Sign}/api/v1/casefiles/{id}.
func (c *Client) caseFileURL(id int64) string {
	return transport.JoinURL(c.sign(), "api", "v1", "casefiles", strconv.FormatInt(id, 10))
}

func (w *wireCaseFile) details() *Details {
	d := &Details{
		ID: w.ID, Title: w.Title, Status: w.Status,
		UserID: int64(w.UserID), CustomerID: int64(w.CustomerID),
		Created: w.Created.time(), Activated: w.Activated.time(), Updated: w.Updated.time(), ExpireAt: w.ExpireAt.time(),
		Completed: w.Completed.time(), SendAt: w.SendAt.time(),
		Language: w.Language, Reference: w.Reference, MetaData: w.MetaData,
		SensitiveData:             bool(w.SensitiveData),
		DisableNotificationsOwner: bool(w.DisableNotificationsOwner),
		DisableEmailAttachments:   bool(w.DisableEmailAttachments),
		VisibilityMode:            int(w.VisibilityMode), SignIteration: int(w.SignIteration),
		CCRecipients: w.CCRecipients,
		SenderName:   w.SenderName, AccessControl: bool(w.AccessControl),
		SignOnMeeting: bool(w.SignOnMeeting), FolderID: int64(w.FolderID), Extra: w.extra,
	}
	for _, doc := range w.Documents {
		d.Documents = append(d.Documents, doc.details())
	}
	for _, s := range w.Signers {
		d.Signers = append(d.Signers, s.details(d.Documents))
	}
	return d
}

func (doc *wireDocument) details() DocumentDetails {
	dd := DocumentDetails{
		ID: doc.ID, DocumentID: doc.DocumentID, Title: doc.Title,
		Signable: doc.Signable == nil || bool(*doc.Signable), FileSize: int64(doc.FileSize),
		DocumentOrder: int(doc.DocumentOrder), CaseFileID: int64(doc.CaseFileID), Status: int(doc.Status),
		Format: doc.Format, Created: doc.Created.time(), MetaData: doc.MetaData, Extra: doc.extra,
	}
	for _, l := range doc.SignatureLines {
		docID := int64(l.DocumentID)
		if docID == 0 {
			docID = doc.ID
		}
		dd.SignatureLines = append(dd.SignatureLines, SignatureLine{
			ID: l.ID, SignerID: l.SignerID, Role: l.Role, SignOrder: int(l.SignOrder),
			ActivatedAt: l.ActivatedAt.time(), DocumentID: docID, SignedAt: l.SignedAt.time(),
		})
	}
	return dd
}

// details describes the signer, with its role and round from the lines of
// docs that name it (the rule is on SignerDetails).
func (s *wireSigner) details(docs []DocumentDetails) SignerDetails {
	sd := SignerDetails{ID: s.ID, Name: s.Name, Role: s.Role, Email: s.Email, SignOrder: s.SignOrder, Status: s.Status, SSNType: s.SSNType,
		OnBehalfOf: s.OnBehalfOf, VATIN: s.VATIN, StoreAsContact: bool(s.StoreAsContact), Language: s.Language, Extra: s.extra}
	if r := s.SigningRequest; r != nil {
		sd.Status, sd.SigningRequestID = r.Status, r.ID
		sd.AccessControl, sd.EnableInsecureSigning = bool(r.AccessControl), bool(r.EnableInsecureSigning)
		sd.SecureSigningMethods, sd.InsecureSigningMethods = r.SecureSigningMethods, r.InsecureSigningMethods
		sd.EmailFormat = r.EmailFormat
		if r.Email != "" {
			sd.Email = r.Email
		}
		r.fill(&sd)
	}
	found := false
	for _, doc := range docs {
		for _, l := range doc.SignatureLines {
			if l.SignerID != s.ID {
				continue
			}
			if !found || l.SignOrder < sd.SignOrder {
				sd.SignOrder = l.SignOrder
			}
			if !found {
				sd.Role = ""
			}
			found = true
			if l.Role != "" && !slices.Contains(sd.Roles, l.Role) {
				sd.Roles = append(sd.Roles, l.Role)
			}
		}
	}
	if len(sd.Roles) > 0 {
		sd.Role = sd.Roles[0]
	} else if !found && sd.Role != "" {
		sd.Roles = []string{sd.Role}
	}
	return sd
}
