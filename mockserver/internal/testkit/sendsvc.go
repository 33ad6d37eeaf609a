package testkit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// APIError is the JSON error body of the mock's services, the platform's
// {"statusCode","error","message","details"}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids),
// decoded as a client reads it.
type APIError struct {
	StatusCode int    `json:"statusCode"`
	Error      string `json:"error"`
	Message    string `json:"message"`
	// Details are the problems of the request, each named by its field.
	Details []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"details"`
}

// JobDelay answers how long after acceptance, in mock time, a Send job of
// s runs: advancing s by it runs every job accepted until now.
func JobDelay(s Server) time.Duration { return Core(s).Cfg.JobDelay }

// TempRoot answers the temporary directory of s, where Send uploads are
// kept; empty while none has been made.
func TempRoot(s Server) string { return Core(s).Temp.Root() }

// TempFiles answers the regular files under the temporary directory of s.
func TempFiles(t testing.TB, s Server) []string {
	t.Helper()
	root := TempRoot(s)
	if root == "" {
		return nil
	}
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
