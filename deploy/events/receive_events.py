#!/usr/bin/env python3
"""Receives StoreGate's events, as the app's own backend would: checks each one's signature, then handles it once.

    STOREGATE_EVENTS_SECRET=... deploy/events/receive_events.py [PORT]

The check is the same few lines in any backend (docs/API.md, Events): the StoreGate-Signature header is
"t=<unix seconds>,v1=<hex>"; recompute HMAC-SHA256 under the endpoint's secret over "<t>." followed by the
body's bytes, exactly as received, compare in constant time, and refuse a timestamp more than five minutes
from your clock. Answer 2xx only once the event is stored: anything else, or no answer in time, and StoreGate
sends it again, later, under the same id, so handle each id once.
"""
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def verified(body: bytes, header: str, secret: str, tolerance_s: int = 300) -> bool:
    """Whether `header` (StoreGate-Signature) signs `body` under `secret`, recently."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    timestamp, signature = fields.get("t", ""), fields.get("v1", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance_s:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


class Receiver(BaseHTTPRequestHandler):
    seen = set()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not verified(body, self.headers.get("StoreGate-Signature", ""), os.environ["STOREGATE_EVENTS_SECRET"]):
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(body)
        if event["id"] not in Receiver.seen:  # a repeat is acknowledged, not handled twice
            Receiver.seen.add(event["id"])
            print(event["type"], event["original_transaction_id"], event["account_id"], flush=True)
        self.send_response(204)
        self.end_headers()


if __name__ == "__main__":
    if not os.environ.get("STOREGATE_EVENTS_SECRET"):
        sys.exit("usage: STOREGATE_EVENTS_SECRET=... receive_events.py [PORT]")
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8300), Receiver).serve_forever()
