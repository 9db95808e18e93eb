#!/usr/bin/env python3
"""Makes an X-StoreGate-Account assertion, as the app's own backend would for its signed-in user.

    STOREGATE_ACCOUNTS_SECRET=... deploy/accounts/assert_account.py ACCOUNT_ID [LIFETIME_S]

The same few lines work in any backend: base64url (no padding) of "1|<expiry, UNIX seconds>|<account id>",
a dot, and base64url of its HMAC-SHA256 under the gateway's accounts.secret. Keep the lifetime short (the
gateway refuses one running longer than accounts.max_assertion_lifetime_s, 900 s by default).
"""
import base64
import hashlib
import hmac
import os
import sys
import time


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def assertion(secret: str, account_id: str, lifetime_s: int = 300) -> str:
    claims = f"1|{int(time.time()) + lifetime_s}|{account_id}".encode()
    mac = hmac.new(secret.encode(), claims, hashlib.sha256).digest()
    return b64url(claims) + "." + b64url(mac)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or not os.environ.get("STOREGATE_ACCOUNTS_SECRET"):
        sys.exit("usage: STOREGATE_ACCOUNTS_SECRET=... assert_account.py ACCOUNT_ID [LIFETIME_S]")
    lifetime = int(sys.argv[2]) if len(sys.argv) == 3 else 300
    print(assertion(os.environ["STOREGATE_ACCOUNTS_SECRET"], sys.argv[1], lifetime))
