package vendorcheck

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// ErrNotFound is wrapped when the vendor directory, the repository root or
// the newman binary cannot be found.
var ErrNotFound = errors.New("vendorcheck: not found")

// Environment variables that point the checks at their inputs.
const (
	EnvVendorDir = "SIGNKIT_VENDOR_DIR" // the vendor directory; default ../shared/vendor beside the checkout
	EnvNewman    = "NEWMAN_BIN"         // the newman binary; default .ci/.newman, then PATH
)

// InCI says whether the CI variable is set (to anything but a false value):
// then a missing input fails the checks instead of skipping them.
func InCI() bool {
	v, ok := os.LookupEnv("CI")
	if !ok || v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	return err != nil || b
}

// RepoRoot is the repository's root: the nearest directory at or above the
// working directory that holds go.work (each module has its own go.mod;
// the workspace file sits only at the root).
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("vendorcheck: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w: no go.work above the working directory", ErrNotFound)
		}
		dir = parent
	}
}

// VendorDir finds the vendor directory: $SIGNKIT_VENDOR_DIR, else
// ../shared/vendor relative to the repository root. It must hold postman/.
func VendorDir(repoRoot string) (string, error) {
	dir := os.Getenv(EnvVendorDir)
	if dir == "" {
		dir = filepath.Join(repoRoot, "..", "shared", "vendor")
	}
	if st, err := os.Stat(filepath.Join(dir, "postman")); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%w: vendor directory %s (with postman/ in it; set %s to move it)", ErrNotFound, dir, EnvVendorDir)
	}
	return filepath.Clean(dir), nil
}

// NewmanBin finds newman: $NEWMAN_BIN, else the copy .ci/newman.sh installs
// under .ci/.newman, else newman on the PATH.
func NewmanBin(repoRoot string) (string, error) {
	if bin := os.Getenv(EnvNewman); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %w", ErrNotFound, EnvNewman, bin, err)
		}
		return bin, nil
	}
	local := filepath.Join(repoRoot, ".ci", ".newman", "node_modules", ".bin", "newman")
	if _, err := os.Stat(local); err == nil {
		return local, nil
	}
	bin, err := exec.LookPath("newman")
	if err != nil {
		return "", fmt.Errorf("%w: newman (run .ci/newman.sh, or set %s): %w", ErrNotFound, EnvNewman, err)
	}
	return bin, nil
}
