#!/usr/bin/env python3
"""Walks README's "Using the mock from another language" end to end, with
the Python standard library only: the API Keys Grant, a form with
multi-entry inputs, its publication and a submission, a case file through
the Send service, signing on the signer's page, and a verified webhook
event.

Usage: readme_walk.py BASE_URL (the URL of the line signkit-mock prints), or
readme_walk.py --bin PATH to start that signkit-mock binary on a free
loopback port for the walk and stop it at the end; with no argument, the
binary named by SIGNKIT_MOCK_BIN."""

import base64
import datetime
import hashlib
import hmac
import http.server
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid


class Walk:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.token = None
        self.called = set()  # (method, path) of every call to the mock

    # -- HTTP ---------------------------------------------------------------
    def call(self, method, path, body=None, headers=None, want=(200,), raw=False):
        url = path if path.startswith("http") else self.base + path
        if url.startswith(self.base + "/"):
            self.called.add((method, urllib.parse.urlsplit(url).path))
        data, hdrs = None, dict(headers or {})
        if body is not None and not isinstance(body, bytes):
            data = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        elif body is not None:
            data = body
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            status, payload = e.code, e.read()
        if status not in want:
            raise SystemExit(f"{method} {path}: {status}, want {want}: {payload[:300]!r}")
        if raw:
            return status, payload
        return json.loads(payload) if payload else None

    def bearer(self):
        return {"Authorization": "Bearer " + self.token}

    # -- the walk -----------------------------------------------------------
    def read_openapi(self):
        self.doc = self.call("GET", "/mock/openapi.json")
        assert self.doc["openapi"] == "3.0.3", self.doc["openapi"]
        return f"OpenAPI {self.doc['openapi']}, {len(self.doc['paths'])} paths"

    def all_described(self):
        routes = [(m.upper(), re.compile("^" + re.sub(r"\{[^/}]+\}", "[^/]+", p) + "$"))
                  for p, item in self.doc["paths"].items() for m in item]
        missing = sorted(f"{m} {p}" for m, p in self.called
                         if not any(m == rm and rp.match(p) for rm, rp in routes))
        if missing:
            raise SystemExit("called but not in /mock/openapi.json: " + ", ".join(missing))
        return f"each of the {len(self.called)} calls is in the description"

    def get_token(self):
        creds = self.call("GET", "/mock/credentials")
        nonce = os.urandom(16)
        created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        digest = base64.b64encode(hashlib.sha1(nonce + created.encode() + creds["apiSecret"].encode()).digest()).decode()
        tok = self.call("POST", "/auth/oauth/token", {
            "grant_type": "api_keys", "client_id": creds["clientId"], "client_secret": creds["clientSecret"],
            "key": creds["apiKey"], "nonce": base64.b64encode(nonce).decode(), "created_at": created, "digest": digest})
        assert tok["token_type"] == "Bearer" and tok["expires_in"] == 600, tok
        self.token = tok["access_token"]
        # The same nonce again is refused: the grant is real.
        self.call("POST", "/auth/oauth/token", {
            "grant_type": "api_keys", "client_id": creds["clientId"], "client_secret": creds["clientSecret"],
            "key": creds["apiKey"], "nonce": base64.b64encode(nonce).decode(), "created_at": created, "digest": digest},
            want=(400, 401))
        return "token by the API Keys Grant; a replayed nonce refused"

    def create_and_publish_form(self):
        form = self.call("POST", "/collect/api/v1/forms", {
            "name": "Python walk", "language": "EN",
            "caseFileTitleTemplate": "{{formName}} for {{primarySigner.name}}",
            "sections": [
                {"slug": "applicant", "title": "Applicant", "fields": [
                    {"name": "fullName", "label": "Full name", "type": "TEXT", "required": True, "mapTo": "primarySigner.name"},
                    {"name": "email", "label": "Email", "type": "EMAIL", "required": True, "mapTo": "primarySigner.email"},
                    {"name": "phones", "label": "Phones", "type": "PHONE", "multipleEntries": {"max": 3}}]},
                {"slug": "jobs", "title": "Jobs", "multipleEntries": {"max": 3}, "fields": [
                    {"name": "employer", "label": "Employer", "type": "TEXT", "required": True}]}]},
            headers=self.bearer(), want=(200, 201))
        self.form_id = form.get("formId") or form["externalId"]
        assert form["status"] == "DRAFT", form
        form = self.call("POST", f"/collect/api/v1/forms/{self.form_id}/publish", {}, headers=self.bearer())
        assert form["status"] == "ACTIVE" and form["publicUrl"], form
        self.public_url = form["publicUrl"]
        return f"form {self.form_id} published at {self.public_url}"

    def submit(self):
        fields = [("fullName", "Ada Python"), ("email", "ada@example.com"),
                  ("phones[]", "+45 12345678"), ("phones[]", "+45 87654321"),
                  ("employer[0]", "First ApS"), ("employer[1]", "Second A/S")]
        body, ctype = multipart(fields, [])
        out = self.call("POST", self.public_url, body, headers={"Content-Type": ctype, "Accept": "application/json"}, want=(201,))
        sub = out["submissionId"]
        answers = self.call("GET", f"/collect/api/v1/forms/{self.form_id}/submissions/{sub}/answers", headers=self.bearer())
        flat = json.dumps(answers)
        for want in ("+45 87654321", "Second A/S", "Ada Python"):
            assert want in flat, (want, answers)
        return f"submission {sub} with two phones and two jobs -> case file {out['casefileId']}"

    def send_case_file(self):
        data = json.dumps({"caseFile": {"title": "Python contract",
                                        "signers": [{"name": "Ada Python", "email": "ada@example.com"}],
                                        "documents": [{"name": "contract.pdf", "title": "Contract"}]}})
        body, ctype = multipart([("data", data)], [("files", "contract.pdf", minimal_pdf("Contract"))])
        job = self.call("POST", "/send/api/v1/casefiles/20251022/create", body,
                        headers={"Content-Type": ctype, "X-Auth-Token": self.token})
        for _ in range(100):
            st = self.call("POST", "/send/api/v1/queue/public/status", {"uuid": job["uuid"], "payloadHash": job["payloadHash"]})
            if st["jobStatus"] == "completed":
                data = st["result"]["data"]
                self.case_file_id = data["caseFile"]["id"]
                self.signing_link = data["signingLinks"][0]["signingLink"]
                return f"job {job['uuid']} completed: case file {self.case_file_id}"
            if st["jobStatus"] in ("failed", "aborted_duplicated"):
                raise SystemExit(f"job ended {st['jobStatus']}: {st.get('errorMessage')}")
            time.sleep(0.1)
        raise SystemExit("the job did not complete within 10 s")

    def subscribe(self, receiver):
        sub = self.call("POST", "/webhook/api/v1/subscriptions", {
            "endpoint": receiver.url, "eventTypes": ["sign.casefile.completed", "webhook.subscription.test"]},
            headers=self.bearer(), want=(200, 201))
        receiver.secret = sub["secret"]
        self.call("POST", "/webhook/api/v1/subscriptions/test", {}, headers=self.bearer(), want=(204,))
        ev = receiver.next("webhook.subscription.test")
        return f"subscription {sub['id']}; test event {ev['id']} verified"

    def sign(self, receiver):
        cf = self.call("POST", self.signing_link, b"action=sign", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"})
        assert cf["status"] == 5, cf  # completed
        ev = receiver.next("sign.casefile.completed")
        assert str(self.case_file_id) in json.dumps(ev["body"]["payload"]), ev
        return f"signed on the signer's page; sign.casefile.completed {ev['id']} verified"


def multipart(fields, files):
    boundary = "walk" + uuid.uuid4().hex
    out = []
    for name, value in fields:
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, filename, content in files:
        out.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                   f'Content-Type: application/pdf\r\n\r\n'.encode() + content + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out), "multipart/form-data; boundary=" + boundary


def minimal_pdf(text):
    """A one-page PDF with a correct cross-reference table."""
    stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


class Receiver:
    """A webhook endpoint on loopback that verifies X-Event-Signature."""

    def __init__(self):
        self.secret, self.events = None, queue.Queue()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                ok = receiver.verify(self.headers, body)
                self.send_response(200 if ok else 400)
                self.end_headers()
                if ok:
                    receiver.events.put({"id": self.headers["X-Event-Id"], "type": self.headers["X-Event-Type"],
                                         "body": json.loads(body)})

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/webhook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def verify(self, headers, body):
        if self.secret is None:
            return False
        try:
            parts = dict(p.split("=", 1) for p in headers.get("X-Event-Signature", "").split(","))
        except ValueError:
            return False
        names = parts.get("h", "").split(" ")
        signed = parts["t"] + "." + parts["h"] + "." + ".".join(headers.get(n, "") for n in names) + "."
        want = hmac.new(self.secret.encode(), signed.encode() + body, hashlib.sha256).hexdigest()
        fresh = abs(time.time() - int(parts["t"])) < 300
        return fresh and hmac.compare_digest(want, parts.get("v1", ""))

    def next(self, typ, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                ev = self.events.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                break
            if ev["type"] == typ:
                return ev
        raise SystemExit(f"no verified {typ} event within {timeout} s")


def start_mock(binary):
    """Starts the signkit-mock binary on a free loopback port; answers the
    process and the base URL of its first line, "listening on URL"."""
    proc = subprocess.Popen([binary, "-addr", "127.0.0.1:0", "-job-delay", "200ms"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()  # the rest of the banner (credentials) stays unread
    if not line.startswith("listening on http://"):
        proc.kill()
        raise SystemExit(f"{binary}: unexpected first line {line.strip()!r}")
    return proc, line.split()[-1]


def main():
    args = sys.argv[1:]
    if not args and os.environ.get("SIGNKIT_MOCK_BIN"):
        args = ["--bin", os.environ["SIGNKIT_MOCK_BIN"]]
    proc = None
    if len(args) == 2 and args[0] == "--bin":
        proc, base = start_mock(args[1])
    elif len(args) == 1 and not args[0].startswith("-"):
        base = args[0]
    else:
        raise SystemExit("usage: readme_walk.py BASE_URL | readme_walk.py --bin PATH (default: $SIGNKIT_MOCK_BIN)")
    try:
        walk(base)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=15)


def walk(base):
    w, receiver = Walk(base), Receiver()
    steps = [("openapi", w.read_openapi), ("token", w.get_token), ("form", w.create_and_publish_form), ("submission", w.submit),
             ("case file", w.send_case_file), ("webhook", lambda: w.subscribe(receiver)),
             ("signing", lambda: w.sign(receiver)), ("described", w.all_described)]
    for name, step in steps:
        print(f"{name:11} {step()}", flush=True)
    print("python walk: every step passed")


if __name__ == "__main__":
    main()
