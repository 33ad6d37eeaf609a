"""The fixtures of conftest.py at work: a token by the platform's API Keys
Grant, and customers that do not see each other's data. README, "Using the
mock from another language", shows the first test."""

import base64
import datetime
import hashlib
import os

from conftest import call


def api_keys_grant(base, c):
    """A token by the platform's API Keys Grant: digest = base64(SHA-1(nonce ‖ created_at ‖ API secret))."""
    nonce = os.urandom(16)
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = hashlib.sha1(nonce + created.encode() + c["apiSecret"].encode()).digest()
    return call("POST", base + "/auth/oauth/token", {
        "grant_type": "api_keys", "client_id": c["clientId"], "client_secret": c["clientSecret"], "key": c["apiKey"],
        "nonce": base64.b64encode(nonce).decode(), "created_at": created, "digest": base64.b64encode(digest).decode()})


def test_new_customer_has_no_case_files(mock_url, customer):
    token = api_keys_grant(mock_url, customer)
    assert token["token_type"] == "Bearer" and token["expires_in"] == 600
    assert call("GET", mock_url + "/api/v1/casefiles", token=token["access_token"]) == []


def test_customers_do_not_see_each_others_subscriptions(mock_url, customer):
    token = call("POST", mock_url + "/mock/token", {"userId": customer["userId"]})["access_token"]  # mock only
    sub = call("POST", mock_url + "/webhook/api/v1/subscriptions",
               {"endpoint": "http://127.0.0.1:9/webhooks", "eventTypes": ["sign.casefile.completed"]}, token=token)
    assert sub["isActive"] and sub["customerId"] == customer["customerId"]
    listed = call("GET", mock_url + "/webhook/api/v1/subscriptions", token=token)["items"]
    assert [s["id"] for s in listed] == [sub["id"]]

    other = call("POST", mock_url + "/mock/users", {"name": "Other", "email": "other@example.com", "newCustomer": True})
    other_token = api_keys_grant(mock_url, other)["access_token"]
    assert call("GET", mock_url + "/webhook/api/v1/subscriptions", token=other_token)["items"] == []
