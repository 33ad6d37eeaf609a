"""README's webhook signature check in Python (verify and mock_now, with
their imports: README's block, verbatim), run against real deliveries of
the mock."""

import http.server
import queue
import threading
import time

from conftest import call

# README, "Webhook signatures in Python", from here to the end of mock_now.
import datetime
import hashlib
import hmac
import json
import urllib.request


def verify(secret, headers, body, now, tolerance=300):
    """headers: case-insensitive (http.server's, Flask's); body: the raw bytes; now: the sender's time, unix seconds.
    Raises on a malformed X-Event-Signature; answer 400 then, as for False."""
    parts = dict(p.split("=", 1) for p in headers["X-Event-Signature"].split(","))  # t=<unix>,h=<names>,v1=<hex>
    values = ".".join(headers[name] for name in parts["h"].split(" "))  # content-type x-event-id x-event-type
    signed = f'{parts["t"]}.{parts["h"]}.{values}.'.encode() + body
    v1 = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(v1, parts["v1"]) and abs(now - int(parts["t"])) <= tolerance


def mock_now(base):
    """The mock's time: t is mock time, which -clock manual and POST /mock/clock/advance set apart from yours."""
    with urllib.request.urlopen(base + "/mock/clock") as resp:
        return datetime.datetime.fromisoformat(json.load(resp)["now"]).timestamp()


def receive_one(send):
    """Starts a receiver on a loopback port, calls send(url) and answers the first delivery's headers and raw body."""
    deliveries = queue.Queue()

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            deliveries.put((self.headers, self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        send(f"http://127.0.0.1:{server.server_address[1]}/webhooks")
        return deliveries.get(timeout=20)
    finally:
        server.shutdown()
        server.server_close()


def test_verify_a_delivery_in_mock_time(manual_mock_url):
    base = manual_mock_url  # its clock stands at 2021-06-01T12:00:00Z
    user = call("POST", base + "/mock/users", {"name": "Receiver", "email": "r@example.com", "newCustomer": True})
    token = call("POST", base + "/mock/token", {"userId": user["userId"]})["access_token"]
    secret = None

    def subscribe_and_test(url):
        nonlocal secret
        sub = call("POST", base + "/webhook/api/v1/subscriptions",
                   {"endpoint": url, "eventTypes": ["webhook.subscription.test"]}, token=token)
        secret = sub["secret"]
        call("POST", base + "/webhook/api/v1/subscriptions/test", {}, token=token)

    headers, body = receive_one(subscribe_and_test)
    assert headers["X-Event-Type"] == "webhook.subscription.test"

    now = mock_now(base)
    assert verify(secret, headers, body, now)
    assert not verify(secret, headers, body + b" ", now)  # the raw body is signed
    assert not verify("not the secret", headers, body, now)
    assert not verify(secret, headers, body, time.time())  # the machine's clock is years past mock time
    call("POST", base + "/mock/clock/advance", {"seconds": 301})
    assert not verify(secret, headers, body, mock_now(base))  # past the 5-minute tolerance


def test_verify_a_delivery_in_real_time(mock_url, customer):
    token = call("POST", mock_url + "/mock/token", {"userId": customer["userId"]})["access_token"]
    secret = None

    def subscribe_and_test(url):
        nonlocal secret
        secret = call("POST", mock_url + "/webhook/api/v1/subscriptions",
                      {"endpoint": url, "eventTypes": ["webhook.subscription.test"]}, token=token)["secret"]
        call("POST", mock_url + "/webhook/api/v1/subscriptions/test", {}, token=token)

    headers, body = receive_one(subscribe_and_test)
    assert verify(secret, headers, body, mock_now(mock_url))
    assert verify(secret, headers, body, time.time())  # a real clock: mock time is the machine's
