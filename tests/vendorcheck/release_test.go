package vendorcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// BuildMock builds the binary as .goreleaser.yaml builds the release: the
// same environment, flags and linker flags.
func TestBuildMockAsReleased(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Env     []string `yaml:"env"`
			Flags   []string `yaml:"flags"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %d builds, want one", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	env, flags := ReleaseBuild()
	if !slices.Equal(env, b.Env) {
		t.Errorf("environment: ReleaseBuild %q, .goreleaser.yaml %q", env, b.Env)
	}
	if want := append(slices.Clone(b.Flags), "-ldflags="+strings.Join(b.Ldflags, " ")); !slices.Equal(flags, want) {
		t.Errorf("flags: ReleaseBuild %q, .goreleaser.yaml gives %q", flags, want)
	}
}
