package openapi_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver/internal/traffic"
)

// recipeTrafficEnv names the directory that holds the traffic of README's
// recipes for other languages, one subdirectory per recipe (recipes),
// each recorded by the binary of the host's release archive with
// traffic.DirEnv pointing there.
const recipeTrafficEnv = "SIGNKIT_RECIPE_TRAFFIC_DIR"

// recipes are the programs of README's "Using the mock from another
// language" that .ci/run runs against the archive's binary: the Python
// walk (tests/python/readme_walk.py), the pytest fixtures (tests/python)
// and the node:test file (tests/node).
var recipes = []string{"walk", "pytest", "node"}

// TestRecipesTrafficMatchesDescription checks the exchanges of the
// recipes for other languages against the OpenAPI description, with the
// checks of TestIntegrationTrafficMatchesDescription (check, report).
//
// The recipes run after the Go tests in .ci/run (they need the archive's
// binary, which is built after them), so this test cannot be part of the
// README's go test run: there recipeTrafficEnv is unset and the test
// skips, saying why, whether CI is set or not. .ci/run runs it on its own
// afterwards with recipeTrafficEnv set and checks its -v output: a PASS
// and one "<recipe>: N exchanges" line per recipe with N > 0, so that a
// skip or a recipe whose mock recorded nothing fails CI. With the variable
// set, a recipe without exchanges fails the test itself. The description
// is the one the archive's binary serves (GET /mock/openapi.json of
// SIGNKIT_MOCK_BIN) when that variable names it, else the one this
// checkout builds.
func TestRecipesTrafficMatchesDescription(t *testing.T) {
	dir := os.Getenv(recipeTrafficEnv)
	if dir == "" {
		t.Skipf("%s is unset: .ci/run sets it to the recipes' recorded traffic after running them "+
			"against the release archive's binary, and then runs this test on its own", recipeTrafficEnv)
	}
	byRecipe, missing, err := readRecipeTraffic(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range missing {
		t.Errorf("%s: no exchange recorded under %s: the recipe did not run against a recording mock",
			r, filepath.Join(dir, r))
	}
	doc := servedDescription(t, os.Getenv("SIGNKIT_MOCK_BIN"))
	for _, r := range recipes {
		problems, exercised := check(t, doc, byRecipe[r])
		for i := range problems {
			problems[i].key = r + ": " + problems[i].key
		}
		report(t, problems)
		t.Logf("%s: %d exchanges over %d operations", r, len(byRecipe[r]), len(exercised))
	}
}

// readRecipeTraffic reads the exchanges under dir/<recipe> for each of
// recipes, and answers the recipes that have none.
func readRecipeTraffic(dir string) (map[string][]traffic.Exchange, []string, error) {
	byRecipe := map[string][]traffic.Exchange{}
	var missing []string
	for _, r := range recipes {
		exchanges, err := traffic.Read(filepath.Join(dir, r))
		if err != nil {
			return nil, nil, err
		}
		if len(exchanges) == 0 {
			missing = append(missing, r)
		}
		byRecipe[r] = exchanges
	}
	return byRecipe, missing, nil
}

// servedDescription answers the description bin serves, loaded and
// validated; with bin empty, the one this checkout builds (load).
func servedDescription(t *testing.T, bin string) *openapi3.T {
	t.Helper()
	if bin == "" {
		doc, _ := load(t)
		t.Log("the description of this checkout (SIGNKIT_MOCK_BIN is unset)")
		return doc
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0")
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, traffic.DirEnv+"=") })
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("%s: first line %q: %v", bin, line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/mock/openapi.json", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/mock/openapi.json: %d %v", base, resp.StatusCode, err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatalf("the description %s serves: %v", bin, err)
	}
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("the description %s serves is not valid OpenAPI: %v", bin, err)
	}
	t.Logf("the description %s serves (%d bytes)", bin, len(raw))
	return doc
}

// TestRecipeTrafficNeedsEveryRecipe shows that a recipe whose mock
// recorded nothing is reported, so the check cannot pass on no traffic.
func TestRecipeTrafficNeedsEveryRecipe(t *testing.T) {
	dir := t.TempDir()
	for _, r := range recipes {
		if err := os.Mkdir(filepath.Join(dir, r), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	line := `{"method":"GET","path":"/mock/health","bodyKept":true,"status":200,"answerKept":false}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "walk", "traffic-1.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	byRecipe, missing, err := readRecipeTraffic(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(byRecipe["walk"]) != 1 || !slices.Equal(missing, []string{"pytest", "node"}) {
		t.Errorf("walk: %d exchanges, missing %v; want 1 and [pytest node]", len(byRecipe["walk"]), missing)
	}
	if _, missing, _ := readRecipeTraffic(filepath.Join(dir, "nowhere")); len(missing) != len(recipes) {
		t.Errorf("a directory that does not exist: missing %v, want every recipe", missing)
	}
}
