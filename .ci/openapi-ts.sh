#!/usr/bin/env bash
# A real generator judges the mock's OpenAPI description (docs/mockserver.md,
# "OpenAPI description"): openapi-typescript generates TypeScript types from
# the description the mock binary serves (GET /mock/openapi.json of
# $SIGNKIT_MOCK_BIN, default signkit-mock on PATH; or of FILE when given, to
# try a changed description), and tsc type-checks the node:test recipe
# (tests/node/mock.test.mjs, whose JSDoc types name the generated ones)
# against them. Fails on any warning the generator prints, on a time field
# (…At) typed Record<string, never> (a schema of type object with no
# properties, where the mock answers a number or a string), and on any type
# error. openapi-typescript, typescript and @types/node come from npm,
# pinned, into .ci/.tsgen (gitignored; a second run installs nothing); the
# types go to tests/node/openapi.ts (gitignored).
# Usage: bash .ci/openapi-ts.sh [FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

OPENAPI_TYPESCRIPT_VERSION=7.13.0
TYPESCRIPT_VERSION=5.9.3
TYPES_NODE_VERSION=20.19.43 # Node 20, the oldest Node the recipe supports
pins="openapi-typescript@$OPENAPI_TYPESCRIPT_VERSION typescript@$TYPESCRIPT_VERSION @types/node@$TYPES_NODE_VERSION"
prefix=.ci/.tsgen
if [ "$(cat "$prefix/pins" 2>/dev/null || true)" != "$pins" ]; then
  command -v npm >/dev/null 2>&1 || { echo "openapi-ts: npm is not installed (needed for $pins)"; exit 1; }
  # shellcheck disable=SC2086 # $pins: one word per package
  npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error $pins >/dev/null
  echo "$pins" >"$prefix/pins"
fi
bin=$prefix/node_modules/.bin

work=$(mktemp -d)
mock_pid=""
cleanup() {
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null && wait "$mock_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

description=$work/openapi.json
if [ $# -gt 0 ]; then
  cp -- "$1" "$description"
  echo "openapi-ts: the description in $1"
else
  mock=${SIGNKIT_MOCK_BIN:-signkit-mock}
  coproc served { exec "$mock" -addr 127.0.0.1:0 2>&1; }
  mock_pid=$served_PID
  IFS= read -r -t 30 first_line <&"${served[0]}" || true
  if [[ $first_line != "listening on http://"* ]]; then
    echo "openapi-ts: $mock: unexpected first line: $first_line"; exit 1
  fi
  curl -fsS -o "$description" "${first_line#listening on }/mock/openapi.json"
  echo "openapi-ts: the description $mock serves ($(wc -c <"$description") bytes)"
fi

# Each check below prints what it found and the step goes on, so that one
# run shows every problem; any of them fails it at the end.
failed=0

# The generator: its progress lines go to stdout, its warnings to stderr;
# anything on stderr, or a warning sign anywhere, fails the step.
types=tests/node/openapi.ts
rm -f "$types"
if ! "$bin/openapi-typescript" "$description" -o "$types" >"$work/gen.out" 2>"$work/gen.err"; then
  cat "$work/gen.out" "$work/gen.err"
  echo "openapi-ts: openapi-typescript $OPENAPI_TYPESCRIPT_VERSION failed"; exit 1
fi
cat "$work/gen.out" "$work/gen.err"
if [ -s "$work/gen.err" ] || grep -qiE '⚠|warn' "$work/gen.out"; then
  echo "openapi-ts: openapi-typescript $OPENAPI_TYPESCRIPT_VERSION warned about the description (above)"; failed=1
fi

# A time field (expireAt, sendAt, activeAt, …) must be typed as the mock
# answers it, never as an object without properties.
if grep -nE '[A-Za-z]At\??: Record<string, never>' "$types"; then
  echo "openapi-ts: the time fields above are typed Record<string, never> (an object schema without properties)"; failed=1
fi

# The recipe against the generated types. Strict, but for implicit any:
# README shows the recipe's first part as plain JavaScript. --skipLibCheck
# skips @types/node only; the generated types are a .ts file and checked.
if ! "$bin/tsc" --noEmit --allowJs --checkJs --strict --noImplicitAny false --skipLibCheck \
  --target es2022 --module nodenext --moduleResolution nodenext \
  --typeRoots "$prefix/node_modules/@types" --types node tests/node/mock.test.mjs; then
  echo "openapi-ts: tests/node/mock.test.mjs does not type-check against $types (above)"; failed=1
fi
if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "openapi-ts: $types generated without a warning; tests/node/mock.test.mjs type-checks against it"
