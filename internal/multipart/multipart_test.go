package multipart

import (
	"bytes"
	"errors"
	"io"
	"mime"
	stdmultipart "mime/multipart"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trackedFile counts opens and closes of an in-memory file.
type trackedFile struct {
	data          []byte
	opens, closes int
	openErr       error
}

func (f *trackedFile) open() (io.ReadCloser, error) {
	if f.openErr != nil {
		return nil, f.openErr
	}
	f.opens++
	return &closer{Reader: bytes.NewReader(f.data), onClose: func() { f.closes++ }}, nil
}

type closer struct {
	io.Reader
	onClose func()
}

func (c *closer) Close() error { c.onClose(); return nil }

func sampleForm(files ...*trackedFile) *Form {
	f := New()
	for i, tf := range files {
		f.AddFile("files", "doc"+string(rune('a'+i))+".pdf", "application/pdf", int64(len(tf.data)), tf.open)
	}
	f.AddField("data", "application/json", []byte(`{"caseFile":{"title":"x"}}`))
	return f
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	a := &trackedFile{data: []byte("%PDF-1.7 first")}
	b := &trackedFile{data: bytes.Repeat([]byte{0, 1, 2, '\r', '\n', '-'}, 10_000)}
	f := sampleForm(a, b)
	for attempt := 1; attempt <= 2; attempt++ {
		rc, n, err := f.Open()
		require.NoError(t, err)
		all, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		assert.Equal(t, n, int64(len(all)), "declared length is the bytes produced")
		assert.Equal(t, attempt, a.opens)
		assert.Equal(t, attempt, a.closes)
		assert.Equal(t, attempt, b.closes)

		_, params, err := mime.ParseMediaType(f.ContentType())
		require.NoError(t, err)
		mr := stdmultipart.NewReader(bytes.NewReader(all), params["boundary"])
		var got []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			content, err := io.ReadAll(p)
			require.NoError(t, err)
			got = append(got, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type"))
			switch p.FileName() {
			case "doca.pdf":
				assert.Equal(t, a.data, content)
			case "docb.pdf":
				assert.Equal(t, b.data, content)
			default:
				assert.JSONEq(t, `{"caseFile":{"title":"x"}}`, string(content))
			}
		}
		assert.Equal(t, []string{"files|doca.pdf|application/pdf", "files|docb.pdf|application/pdf", "data||application/json"}, got)
	}
}

func TestFilesOpenLazily(t *testing.T) {
	t.Parallel()
	a := &trackedFile{data: []byte("aaaa")}
	b := &trackedFile{data: []byte("bbbb")}
	rc, _, err := sampleForm(a, b).Open()
	require.NoError(t, err)
	assert.Equal(t, 0, a.opens, "Open opens no file")
	buf := make([]byte, 1)
	for a.closes == 0 {
		_, err := rc.Read(buf)
		require.NoError(t, err)
		assert.Equal(t, 0, b.opens, "the second file is not opened while the first is read")
	}
	require.NoError(t, rc.Close())
	assert.Equal(t, 1, a.closes)
	assert.Equal(t, b.opens, b.closes, "closing the body closes an open file")
}

func TestCloseMidFile(t *testing.T) {
	t.Parallel()
	a := &trackedFile{data: bytes.Repeat([]byte("a"), 1000)}
	rc, _, err := sampleForm(a).Open()
	require.NoError(t, err)
	_, err = io.ReadFull(rc, make([]byte, 300))
	require.NoError(t, err)
	require.Equal(t, 1, a.opens)
	require.NoError(t, rc.Close())
	assert.Equal(t, 1, a.closes)
	_, err = io.ReadAll(rc)
	assert.ErrorIs(t, err, errClosed)
}

func TestSizeMismatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		declared int64
	}{{"short read", 11}, {"longer than declared", 9}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tf := &trackedFile{data: []byte("0123456789")}
			f := New()
			f.AddFile("files", "a.pdf", "application/pdf", tc.declared, tf.open)
			rc, n, err := f.Open()
			require.NoError(t, err)
			got, err := io.ReadAll(rc)
			require.ErrorIs(t, err, ErrSizeMismatch)
			assert.Contains(t, err.Error(), `"a.pdf"`)
			assert.Less(t, int64(len(got)), n, "the body is cut short, not padded or overlong")
			assert.Equal(t, 1, tf.closes, "the file is closed after the failure")
		})
	}
}

func TestOpenAndReadErrors(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	f := New()
	f.AddFile("files", "gone.pdf", "application/pdf", 3, func() (io.ReadCloser, error) { return nil, boom })
	rc, _, _ := f.Open()
	_, err := io.ReadAll(rc)
	require.ErrorIs(t, err, boom)

	f = New()
	f.AddFile("files", "bad.pdf", "application/pdf", 3, func() (io.ReadCloser, error) {
		return io.NopCloser(iotest.ErrReader(boom)), nil
	})
	rc, _, _ = f.Open()
	_, err = io.ReadAll(rc)
	require.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), `reading "bad.pdf"`)
}

func TestEmptyFileAndHeaderEscaping(t *testing.T) {
	t.Parallel()
	f := NewWithBoundary("b0undary")
	f.AddFile("files", "we\"ird\r\nname.pdf", "application/pdf", 0, func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("")), nil
	})
	rc, n, err := f.Open()
	require.NoError(t, err)
	all, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, n, int64(len(all)))
	assert.Equal(t, "--b0undary\r\nContent-Disposition: form-data; name=\"files\"; filename=\"we\\\"ird%0D%0Aname.pdf\"\r\n"+
		"Content-Type: application/pdf\r\n\r\n\r\n--b0undary--\r\n", string(all))
	assert.Equal(t, "multipart/form-data; boundary=b0undary", f.ContentType())
}

func TestConcurrentOpens(t *testing.T) {
	t.Parallel()
	f := New()
	f.AddFile("files", "a.pdf", "application/pdf", 3, func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("abc")), nil
	})
	f.AddField("data", "", []byte("{}"))
	done := make(chan int64, 4)
	for range 4 {
		go func() {
			rc, n, err := f.Open()
			assert.NoError(t, err)
			b, err := io.ReadAll(rc)
			assert.NoError(t, err)
			assert.Equal(t, n, int64(len(b)))
			done <- n
		}()
	}
	for range 4 {
		assert.Equal(t, f.Len(), <-done)
	}
}
