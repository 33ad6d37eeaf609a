"""pytest fixtures for tests against signkit-mock: README, "Using the mock
from another language", shows the first part of this file. SIGNKIT_MOCK_BIN
names the binary (default: signkit-mock on PATH). Run with
SIGNKIT_MOCK_BIN=PATH python3 -m pytest tests/python (pytest 7 or newer)."""

# conftest.py: one signkit-mock for the session, a new customer for each test.
import json
import os
import subprocess
import urllib.request

import pytest


def start_mock(*flags):
    """Starts signkit-mock on a free loopback port; answers the process and its base URL."""
    proc = subprocess.Popen([os.environ.get("SIGNKIT_MOCK_BIN", "signkit-mock"), "-addr", "127.0.0.1:0", *flags],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # "listening on http://127.0.0.1:PORT"; the rest of the banner stays unread
    assert line.startswith("listening on http://"), line
    return proc, line.split()[-1]


def stop_mock(proc):
    proc.terminate()  # SIGTERM: the mock shuts down cleanly
    proc.wait(timeout=10)


def call(method, url, body=None, token=None):
    """One JSON request; answers the decoded JSON answer (None when empty). A non-2xx raises HTTPError."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=20) as resp:
        payload = resp.read()
    return json.loads(payload) if payload else None


@pytest.fixture(scope="session")
def mock_url():
    proc, url = start_mock()
    yield url
    stop_mock(proc)


@pytest.fixture
def customer(mock_url):
    """A new customer's admin user: {clientId, clientSecret, apiKey, apiSecret, customerId, userId}.
    Each test sees only its own forms, case files and subscriptions."""
    return call("POST", mock_url + "/mock/users",
                {"name": "Test admin", "email": "admin@example.com", "admin": True, "newCustomer": True})

# (end of README's excerpt)


@pytest.fixture
def manual_mock_url():
    """A mock of its own whose clock is manual and set in the past, so that mock time and the machine's differ."""
    proc, url = start_mock("-clock", "manual", "-start", "2021-06-01T12:00:00Z")
    yield url
    stop_mock(proc)
