#!/usr/bin/env python3
"""The tests' receiver of events: the example's signature check (deploy/events/receive_events.py), every
delivery attempt written as a JSON line to LOG, and answers as the file MODE says: "ok" (204), "fail" (503),
or "slow" (no answer for 30 s).

    event_receiver.py PORT SECRET LOG MODE
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "deploy", "events"))
from receive_events import verified  # noqa: E402

PORT, SECRET, LOG, MODE = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(MODE) as mode_file:
            mode = mode_file.read().strip()
        status = {"ok": 204, "fail": 503}.get(mode, 204)
        record = {
            "verified": verified(body, self.headers.get("StoreGate-Signature", ""), SECRET),
            "event_id_header": self.headers.get("StoreGate-Event-Id"),
            "content_type": self.headers.get("Content-Type"),
            "status": status if mode != "slow" else "timeout",
            "event": json.loads(body),
        }
        with open(LOG, "a") as log:
            log.write(json.dumps(record) + "\n")
        if mode == "slow":
            time.sleep(30)
        self.send_response(status)
        self.end_headers()

    def log_message(self, *args):
        pass


ThreadingHTTPServer.allow_reuse_address = True
ThreadingHTTPServer.daemon_threads = True
server = ThreadingHTTPServer(("127.0.0.1", PORT), Receiver)
print("listening", server.server_address[1], flush=True)
server.serve_forever()
