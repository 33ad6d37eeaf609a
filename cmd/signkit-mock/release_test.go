package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml that decides what a
// release archive holds and how its binary is built.
type goreleaserConfig struct {
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
		Files        []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
}

// .ci/run builds the host's release archive itself (GoReleaser runs in
// .ci/release, before a tag): it must build and name it as .goreleaser.yaml
// does, or CI would test a binary unlike the released ones.
func TestReleaseBuildMatchesGoreleaser(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var gr goreleaserConfig
	if err := yaml.Unmarshal(raw, &gr); err != nil {
		t.Fatal(err)
	}
	if len(gr.Builds) != 1 || len(gr.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: %d builds and %d archives, want one each", len(gr.Builds), len(gr.Archives))
	}
	b, a := gr.Builds[0], gr.Archives[0]
	ciRun, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	build := regexp.MustCompile(`(?m)^(.*) go build (.*) -o "\$release_dir/build/(\S+)" (\S+)$`).FindStringSubmatch(string(ciRun))
	if build == nil {
		t.Fatal(".ci/run has no go build of the release binary")
	}
	env, flags, binary, main := strings.Fields(build[1]), build[2], build[3], build[4]
	if !slices.Equal(env, b.Env) {
		t.Errorf("environment: .ci/run %q, .goreleaser.yaml %q", env, b.Env)
	}
	wantFlags := strings.Join(b.Flags, " ") + " -ldflags '" + strings.Join(b.Ldflags, " ") + "'"
	if flags != wantFlags {
		t.Errorf("flags: .ci/run %q, .goreleaser.yaml gives %q", flags, wantFlags)
	}
	// The tests' own builds of the binary (buildBinary).
	testEnv, testFlags := releaseBuild()
	if !slices.Equal(testEnv, b.Env) {
		t.Errorf("environment: releaseBuild %q, .goreleaser.yaml %q", testEnv, b.Env)
	}
	if want := append(slices.Clone(b.Flags), "-ldflags="+strings.Join(b.Ldflags, " ")); !slices.Equal(testFlags, want) {
		t.Errorf("flags: releaseBuild %q, .goreleaser.yaml gives %q", testFlags, want)
	}
	if binary != b.Binary || main != b.Main {
		t.Errorf("binary %s of %s in .ci/run, %s of %s in .goreleaser.yaml", binary, main, b.Binary, b.Main)
	}
	// The archive: its name, and the files beside the binary.
	name := strings.NewReplacer("{{ .ProjectName }}", gr.ProjectName, "{{ .Os }}", "$(go env GOOS)",
		"{{ .Arch }}", "$(go env GOARCH)").Replace(a.NameTemplate) + "." + a.Formats[0]
	if !strings.Contains(string(ciRun), "A="+name+"\n") {
		t.Errorf(".ci/run does not name the archive %s", name)
	}
	tarLine := regexp.MustCompile(`(?m)^tar -czf "\$release_dir/\$A" -C "\$release_dir/build" (\S+) -C "\$PWD" (.*)$`).FindStringSubmatch(string(ciRun))
	if tarLine == nil || tarLine[1] != b.Binary || !slices.Equal(strings.Fields(tarLine[2]), a.Files) {
		t.Errorf(".ci/run's archive holds %q, .goreleaser.yaml's the binary and %q", tarLine, a.Files)
	}
	if gr.Checksum.NameTemplate != "checksums.txt" || gr.Checksum.Algorithm != "sha256" ||
		!strings.Contains(string(ciRun), `sha256sum "$A" >checksums.txt`) {
		t.Errorf("checksums: .goreleaser.yaml %+v; .ci/run must write sha256sum's checksums.txt", gr.Checksum)
	}
}

// TestReleaseArchiveCarriesTheUsersDocs holds the archive to the docs a
// team without Go needs beside the binary, and keeps the maintainers'
// notes out of it (README, "Using the mock from another language").
func TestReleaseArchiveCarriesTheUsersDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var gr struct {
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal(b, &gr); err != nil {
		t.Fatal(err)
	}
	if len(gr.Archives) != 1 {
		t.Fatalf("%d archives in .goreleaser.yaml, want 1", len(gr.Archives))
	}
	files := gr.Archives[0].Files
	for _, want := range []string{"README.md", "CHANGELOG.md", "docs/any-language.md", "docs/platform.md", "docs/webhooks.md", "docs/openapi.json"} {
		if !slices.Contains(files, want) {
			t.Errorf("the release archive lacks %s (it holds %q)", want, files)
		}
		if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(want))); err != nil {
			t.Errorf("the release archive names %s: %v", want, err)
		}
	}
	for _, notes := range []string{"docs/mockserver.md", "docs/architecture.md"} {
		if slices.Contains(files, notes) {
			t.Errorf("the release archive holds the maintainers' notes %s", notes)
		}
	}
}
