#!/usr/bin/env python3
"""Following the Project Directory's changes in Python, standard library only.

Subscribes a local webhook receiver, follows GET /api/changes from the current end with
long-polling, creates a project, and waits until the change arrives both through the feed and
as a webhook whose Standard Webhooks signature it verifies by hand (HMAC-SHA256). Cleans up
(project and webhook) and exits non-zero on any mismatch.

The server must allow a webhook on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=1):

    WEBHOOK_ALLOW_PRIVATE=1 pnpm start                 # then, from the repository root:
    python3 examples/python/follow_changes.py

BASE_URL (default http://127.0.0.1:3000) and API_KEY (default: WEBHOOK_API_KEY, else data/api-key)
name another server.
"""

import base64
import hashlib
import hmac
import http.server
import json
import os
import queue
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:3000").rstrip("/")

def find_api_key():
    """API_KEY, else WEBHOOK_API_KEY, else the key a local server keeps in data/api-key.

    A server started without WEBHOOK_API_KEY on its default embedded database (./data) generates
    a key and keeps it there, so run from the repository root this needs nothing set.
    """
    for name in ("API_KEY", "WEBHOOK_API_KEY"):
        if os.environ.get(name):
            return os.environ[name]
    try:
        with open(os.path.join("data", "api-key"), encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


API_KEY = find_api_key()
TOLERANCE_SECONDS = 5 * 60


def call(method, path, body=None):
    """One request with the key; returns (status, parsed JSON body)."""
    headers = {"Accept": "application/json", "x-api-key": API_KEY}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


def verify_signature(secret, headers, body):
    """Standard Webhooks verification: raises ValueError unless one v1 signature matches.

    The signed content is "<webhook-id>.<webhook-timestamp>.<raw body>"; the key is the
    base64 part of the "whsec_" secret; each signature in webhook-signature is "v1,<base64>".
    """
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        raise ValueError("missing webhook headers")
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise ValueError("timestamp outside the tolerance")
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode("ascii"), expected):
            return json.loads(body)
    raise ValueError("no matching signature")


def start_receiver(secret_box, received):
    """A webhook receiver on a free local port; verified messages go to `received`."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                message = verify_signature(secret_box["secret"], self.headers, body)
            except ValueError as error:
                print(f"  receiver: refused ({error})")
                self.send_response(401)
                self.end_headers()
                return
            received.put((self.headers["webhook-id"], message))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    if not API_KEY:
        print("set API_KEY to the server's WEBHOOK_API_KEY, or run from the repository root of a server"
              " that keeps its key in data/api-key", file=sys.stderr)
        return 2

    received = queue.Queue()
    secret_box = {"secret": ""}
    receiver = start_receiver(secret_box, received)
    url = f"http://127.0.0.1:{receiver.server_address[1]}/directory-hook"

    status, reply = call("POST", "/api/webhooks", {"url": url, "events": ["project.created"]})
    if status != 200:
        raise SystemExit(f"cannot subscribe ({status}): {reply}")
    webhook_id = reply["webhook"]["id"]
    secret_box["secret"] = reply["secret"]
    print(f"subscribed webhook {webhook_id} -> {url}")

    # The feed's current end: read until hasMore is false, keep nextCursor.
    cursor = None
    while True:
        query = {"limit": 1000}
        if cursor:
            query["after"] = cursor
        status, page = call("GET", "/api/changes?" + urllib.parse.urlencode(query))
        if status != 200:
            raise SystemExit(f"cannot read the feed ({status}): {page}")
        cursor = page["nextCursor"]
        if not page["hasMore"]:
            break

    tag = uuid.uuid4().hex[:8]
    project = {
        "name": f"变更示例 {tag}",
        "nameEn": f"Change Example {tag}",
        "description": "A project created by the change feed example.",
        "tags": [{"name": "示例", "nameEn": "Example"}],
        "links": [{"type": "WEBSITE", "url": f"https://change-example-{tag}.example.org/"}],
    }
    status, reply = call("POST", "/api/webhook/projects", {"projects": [project]})
    if status != 200:
        raise SystemExit(f"cannot create the project ({status}): {reply}")
    slug = f"change-example-{tag}"
    print(f"created {slug}")

    try:
        # Follow: long-poll from the cursor until the project's change shows up.
        deadline = time.time() + 60
        seen = None
        while seen is None and time.time() < deadline:
            query = urllib.parse.urlencode({"after": cursor, "limit": 100, "wait": 10})
            status, page = call("GET", "/api/changes?" + query)
            if status != 200:
                raise SystemExit(f"cannot follow the feed ({status}): {page}")
            for change in page["changes"]:
                print(f"  feed: {change['at']} {change['type']} {change['slug'] or change['taskId']}")
                if change["type"] == "project.created" and change["slug"] == slug:
                    seen = change
            cursor = page["nextCursor"]
        if seen is None:
            raise SystemExit("the change did not appear in the feed")

        # The same change, pushed and signed.
        while True:
            try:
                message_id, message = received.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                raise SystemExit("no verified webhook delivery arrived") from None
            if message["data"]["cursor"] == seen["cursor"]:
                print(f"  webhook {message_id}: {message['type']} {message['data']['slug']} (signature verified)")
                break
    finally:
        call("DELETE", f"/api/projects/{slug}")
        call("DELETE", f"/api/webhooks/{webhook_id}")
        receiver.shutdown()
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
