package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/forms"
)

// rss answers the resident set size of process pid, from /proc.
func rss(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// TestBinaryGivesMemoryBackOnReset fills the standalone binary to at least
// 512 MiB of resident memory with form submissions carrying 10 MiB files,
// resets it with POST /mock/reset, and checks that 10 s later its resident
// memory is within 64 MiB of what it was fresh.
func TestBinaryGivesMemoryBackOnReset(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: resident memory cannot be read on this system")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	base, _ := readBanner(t, stdout)
	health(t, base)
	pid := cmd.Process.Pid

	ctx := t.Context()
	client := mockClient(t, base)
	form, err := client.Forms.Create(ctx, &forms.Form{Name: "Fill", Sections: []forms.Section{{Title: "All", Fields: []forms.Field{
		{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
		{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
		{Name: "doc", Label: "Document", Type: forms.TypeFile},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	if form, err = client.Forms.Publish(ctx, form.ExternalID); err != nil {
		t.Fatal(err)
	}
	fresh := rss(t, pid)
	file := bytes.Repeat([]byte("0123456789abcdef"), (10<<20-4096)/16)
	var full int64
	for i := 0; full < 512<<20; i++ {
		if i > 200 {
			t.Fatalf("after %d submissions the binary holds only %d MiB", i, full>>20)
		}
		submitWithFile(t, form.PublicURL, file)
		full = rss(t, pid)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mock/reset", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reset: %d", resp.StatusCode)
	}
	time.Sleep(10 * time.Second)
	after := rss(t, pid)
	t.Logf("resident memory: fresh %d MiB, filled %d MiB, 10 s after reset %d MiB", fresh>>20, full>>20, after>>20)
	if after > fresh+64<<20 {
		t.Fatalf("10 s after reset the binary holds %d MiB, more than 64 MiB over its fresh %d MiB", after>>20, fresh>>20)
	}
}

// mockClient answers an SDK client of the mock's default user.
func mockClient(t *testing.T, base string) *signkit.Client {
	t.Helper()
	resp, err := http.Get(base + "/mock/credentials")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct{ ClientID, ClientSecret, APIKey, APISecret string }
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	client, err := signkit.NewClient(signkit.Config{Endpoints: signkit.LocalEndpoints(base),
		Credentials: auth.Credentials{ClientID: c.ClientID, ClientSecret: c.ClientSecret, APIKey: c.APIKey, APISecret: c.APISecret}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// submitWithFile fills the public form at url with a file, as a browser
// would post it.
func submitWithFile(t *testing.T, url string, file []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("name", "Ann")
	_ = mw.WriteField("email", "ann@example.com")
	fw, _ := mw.CreateFormFile("doc", "doc.bin")
	_, _ = fw.Write(file)
	_ = mw.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("submission: %d", resp.StatusCode)
	}
}
