#!/usr/bin/env bash
# Installs newman, pinned, into .ci/.newman (gitignored; a second run installs
# nothing). "bash .ci/newman.sh install" stops there (.ci/run: the tests step
# then runs the collections with everything else); without an argument it
# also runs the platform vendor's Postman collections against a freshly built
# signkit-mock (go test -run TestVendorCollections ./tests/vendorcheck/) and
# prints one line per collection: "newman <collection>: <passed>/<total>
# assertions". Failures not listed in docs/vendor-exceptions.md
# fail the step. With CI set, a missing ../shared/vendor or newman fails it;
# without CI the test skips and says why.
set -euo pipefail
cd "$(dirname "$0")/.."

NEWMAN_VERSION=6.2.2
prefix=.ci/.newman
bin="$prefix/node_modules/.bin/newman"
if [ "$("$bin" --version 2>/dev/null || true)" != "$NEWMAN_VERSION" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "newman: npm is not installed (needed to install newman $NEWMAN_VERSION)"
    [ -n "${CI:-}" ] && exit 1
  else
    npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "newman@$NEWMAN_VERSION" >/dev/null
  fi
fi
if [ -x "$bin" ]; then
  export NEWMAN_BIN="$PWD/$bin"
fi

[ "${1:-}" = install ] && exit 0

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
go test -count=1 -run '^TestVendorCollections$' -v ./tests/vendorcheck/ >"$log" 2>&1 || status=$?
grep -E '^newman ' "$log" || true
if [ "$status" -ne 0 ]; then
  grep -vE '^newman ' "$log" | grep -E -B2 -A10 '(--- FAIL|FAIL|panic:|unlisted failure|Error)' | head -200
  exit "$status"
fi
grep -E -- '--- SKIP|skipped' "$log" || true
