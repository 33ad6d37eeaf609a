#!/usr/bin/env bash
# curl-walkthrough.sh BASE_URL
#
# Walks through the forms service of a running signkit-mock with curl alone
# (openssl and base64 compute the login digest): log in with the API Keys
# Grant, create a form, publish it, create a prefilled request with a locked
# field, submit the public page as a browser would (multipart/form-data),
# and list the submissions. Prints "walkthrough ok" at the end.
#
#   go run ./cmd/signkit-mock -addr 127.0.0.1:8765 &
#   bash mockserver/testdata/curl-walkthrough.sh http://127.0.0.1:8765
set -euo pipefail

BASE=${1:-http://127.0.0.1:8765}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# json_str KEY: the first string value of KEY in the JSON on stdin.
json_str() { grep -o "\"$1\":\"[^\"]*\"" | head -n1 | cut -d'"' -f4; }
# json_num KEY: the first number value of KEY in the JSON on stdin.
json_num() { grep -o "\"$1\":[0-9]*" | head -n1 | cut -d: -f2; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. Credentials of the default user (the mock's control API).
creds=$(curl -sS -f "$BASE/mock/credentials")
client_id=$(json_str clientId <<<"$creds")
client_secret=$(json_str clientSecret <<<"$creds")
api_key=$(json_str apiKey <<<"$creds")
api_secret=$(json_str apiSecret <<<"$creds")

# 2. Token: digest = base64(SHA-1(raw nonce bytes ‖ created_at ‖ API secret)).
openssl rand 20 >"$WORK/nonce"
nonce=$(base64 -w0 <"$WORK/nonce")
created_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
digest=$({ cat "$WORK/nonce"; printf '%s%s' "$created_at" "$api_secret"; } | openssl dgst -sha1 -binary | base64 -w0)
token_json=$(curl -sS -f -X POST "$BASE/auth/oauth/token" -H 'Content-Type: application/json' \
  -d "{\"grant_type\":\"api_keys\",\"client_id\":\"$client_id\",\"client_secret\":\"$client_secret\",\"key\":\"$api_key\",\"nonce\":\"$nonce\",\"created_at\":\"$created_at\",\"digest\":\"$digest\"}")
token=$(json_str access_token <<<"$token_json")
[ -n "$token" ] || fail "no access token"
echo "logged in"

API="$BASE/collect/api/v1"
AUTH="Authorization: Bearer $token"

# 3. Create a form (DRAFT) and publish it (ACTIVE).
form=$(curl -sS -f -X POST "$API/forms" -H "$AUTH" -H 'Content-Type: application/json' --data-binary @- <<'JSON'
{"name":"Walkthrough","caseFileTitleTemplate":"{{formName}}: {{primarySigner.name}}",
 "sections":[
  {"slug":"you","title":"You","fields":[
    {"name":"fullName","label":"Full name","type":"TEXT","required":true,"mapTo":"primarySigner.name"},
    {"name":"email","label":"Email","type":"EMAIL","required":true,"mapTo":"primarySigner.email"}]},
  {"slug":"review","title":"Review","fields":[
    {"name":"summary","type":"HTML","content":"<p>{{fullName}} &lt;{{email}}&gt;</p>"},
    {"name":"cv","label":"CV","type":"FILE"}]}]}
JSON
)
form_id=$(json_str externalId <<<"$form")
[ "$(json_str status <<<"$form")" = DRAFT ] || fail "created form is not DRAFT: $form"
published=$(curl -sS -f -X POST "$API/forms/$form_id/publish" -H "$AUTH")
[ "$(json_str status <<<"$published")" = ACTIVE ] || fail "published form is not ACTIVE: $published"
echo "form $form_id is ACTIVE at $(json_str publicUrl <<<"$published")"

# 4. A prefilled request with the email locked.
request=$(curl -sS -f -X POST "$API/forms/$form_id/requests" -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"answers":{"email":{"value":"ann@example.com","editable":false}}}')
request_url=$(json_str requestUrl <<<"$request")
page=$(curl -sS -f "$request_url")
grep -q 'value="ann@example.com" readonly' <<<"$page" || fail "locked field is not read-only on the page"

# 5. Submit the public page as a browser does, with a file.
printf 'my cv' >"$WORK/cv.txt"
submitted=$(curl -sS -f -X POST "$request_url" -H 'Accept: application/json' \
  -F fullName='Ann Walker' -F email=ann@example.com -F "cv=@$WORK/cv.txt;type=text/plain")
submission_id=$(json_num submissionId <<<"$submitted")
casefile_id=$(json_num casefileId <<<"$submitted")
[ -n "$submission_id" ] && [ -n "$casefile_id" ] || fail "no submission: $submitted"
echo "submission $submission_id, case file $casefile_id"

# A changed locked value is refused.
status=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$request_url" -H 'Accept: application/json' \
  -F fullName='Eve' -F email=eve@example.com)
[ "$status" = 422 ] || fail "changed locked value answered $status"

# 6. List the submissions and fetch the uploaded file.
list=$(curl -sS -f "$API/forms/$form_id/submissions?limit=10" -H "$AUTH")
grep -q "\"submissionId\":$submission_id,\"casefileId\":$casefile_id" <<<"$list" || fail "submission not listed: $list"
files=$(curl -sS -f "$API/casefiles/$casefile_id/files" -H "$AUTH")
file_url=$(json_str url <<<"$files")
[ "$(curl -sS -f "$file_url" -H "$AUTH")" = 'my cv' ] || fail "file download differs"
echo "walkthrough ok"
