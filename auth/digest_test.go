package auth

import (
	"encoding/base64"
	"testing"
)

func TestDigestVector(t *testing.T) {
	nonce := make([]byte, 20)
	for i := range nonce {
		nonce[i] = byte(i)
	}
	if got := base64.StdEncoding.EncodeToString(nonce); got != "AAECAwQFBgcICQoLDA0ODxAREhM=" {
		t.Fatalf("nonce encoding = %s", got)
	}
	got := Digest(nonce, "2026-11-22T10:00:00Z", "api-secret")
	if want := "1DXVRv70qK6NFGiXzeTXRCYFU8A="; got != want {
		t.Fatalf("Digest = %s, want %s", got, want)
	}
}
