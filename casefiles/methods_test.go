package casefiles_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"
)

func TestSigningMethodsIsKnown(t *testing.T) {
	t.Parallel()
	for _, m := range []casefiles.SecureSigningMethod{casefiles.SecureMitID, casefiles.SecureBankIDSweden,
		casefiles.SecureBankIDNorway, casefiles.SecureItsme, casefiles.SecureFTN, casefiles.SecureBelgianEID,
		casefiles.SecurePassportReader, casefiles.SecureAusweisApp, casefiles.SecureQualifiedMitID} {
		assert.True(t, m.IsKnown(), m)
	}
	for _, m := range []casefiles.SecureSigningMethod{"", "MITID.DK", "mitid", "bankid"} {
		assert.False(t, m.IsKnown(), m)
	}
	for _, m := range []casefiles.InsecureSigningMethod{casefiles.InsecureText, casefiles.InsecureDraw, casefiles.InsecureImage} {
		assert.True(t, m.IsKnown(), m)
	}
	assert.False(t, casefiles.InsecureSigningMethod("touch").IsKnown())
	assert.True(t, casefiles.EmailFormatText.IsKnown())
	assert.True(t, casefiles.EmailFormatHTML.IsKnown())
	assert.False(t, casefiles.EmailFormat("").IsKnown())
	assert.False(t, casefiles.EmailFormat("markdown").IsKnown())
}

// The signer's methods and email format go under the platform's names
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// signer fields), and are left out when unset.
func TestSignerSigningMethodsOnTheWire(t *testing.T) {
	t.Parallel()
	s := casefiles.Signer{Name: "A",
		SecureSigningMethods:   []casefiles.SecureSigningMethod{casefiles.SecureMitID, casefiles.SecureQualifiedMitID},
		EnableInsecureSigning:  true,
		InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw},
		EmailFormat:            casefiles.EmailFormatHTML}
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"A","secureSigningMethods":["mitid.dk","qes.personal.mitid.dk"],"enableInsecureSigning":true,`+
		`"insecureSigningMethods":["draw"],"emailFormat":"html"}`, string(b))
	var back casefiles.Signer
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, s, back)

	b, err = json.Marshal(casefiles.Signer{Name: "B"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"B"}`, string(b))
}
