#!/usr/bin/env python3
"""A client of the Project Directory API in Python, standard library only.

Creates a project, reads it back by slug, checks that an unknown slug is a 404 in the error
envelope, and deletes the project. Prints each step; exits non-zero on any mismatch.

    python3 examples/python/directory_example.py     # from the repository root, after `pnpm start`

BASE_URL (default http://127.0.0.1:3000) and API_KEY (default: WEBHOOK_API_KEY, else data/api-key)
name another server.
"""

import json
import os
import sys
import urllib.error
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


class Mismatch(Exception):
    pass


def call(method, path, body=None, key=True):
    """One request; returns (status, parsed JSON body). Error statuses are answers too."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if key:
        headers["x-api-key"] = API_KEY
    request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


def expect(what, actual, wanted):
    if actual != wanted:
        raise Mismatch(f"{what}: expected {wanted!r}, got {actual!r}")


def main():
    if not API_KEY:
        print("Set API_KEY to the server's WEBHOOK_API_KEY (and BASE_URL, default http://127.0.0.1:3000),\n"
              "or run from the repository root of a server that keeps its key in data/api-key.")
        return 2

    run = uuid.uuid4().hex[:10]
    project = {
        "name": f"示例项目 {run}",
        "nameEn": f"Python Example {run}",
        "description": "A project created by the Python example client.",
        "tags": [{"name": "示例", "nameEn": "Example"}],
        "links": [
            {"type": "CODEHOST", "url": f"https://github.com/example/python-{run}"},
            {"type": "WEBSITE", "url": f"https://python-{run}.example.org/", "title": "Home"},
        ],
    }

    status, body = call("POST", "/api/webhook/projects", {"projects": [project]})
    expect("POST /api/webhook/projects status", status, 200)
    expect("created", (body["success"], body["created"], body["failed"]), (True, 1, 0))
    slug = f"python-example-{run}"
    print(f"created project {project['nameEn']!r} (expected slug {slug})")

    try:
        check(slug, project, run)
    except Exception:
        call("DELETE", f"/api/projects/{slug}")  # leave nothing behind
        raise
    return 0


def check(slug, project, run):
    """Reads the project back, checks a 404, then deletes the project."""
    status, body = call("GET", f"/api/projects/{slug}", key=False)
    expect(f"GET /api/projects/{slug} status", status, 200)
    data = body["data"]
    for field in ("name", "nameEn", "description"):
        expect(field, data[field], project[field])
    expect("slug", data["slug"], slug)
    expect("status", data["status"], "ACTIVE")
    expect("links", [(l["type"], l["url"], l["title"]) for l in data["links"]],
           [(l["type"], l["url"], l.get("title")) for l in project["links"]])
    # A tag is found by its name; one that exists already keeps its own nameEn.
    expect("tags", [t["name"] for t in data["tags"]], ["示例"])
    print(f"read it back: id {data['id']}, {len(data['links'])} links, {len(data['tags'])} tag")

    missing = f"no-such-project-{run}"
    status, body = call("GET", f"/api/projects/{missing}", key=False)
    expect("unknown slug status", status, 404)
    expect("unknown slug body", body,
           {"success": False, "error": "Not Found", "details": [f'Project with slug "{missing}" not found']})
    print(f"unknown slug {missing}: 404 {body['error']}")

    status, body = call("DELETE", f"/api/projects/{slug}")
    expect(f"DELETE /api/projects/{slug} status", status, 200)
    expect("deleted", (body["data"]["project"]["slug"], body["data"]["deleted"]["linksCount"]), (slug, 2))
    status, _ = call("GET", f"/api/projects/{slug}", key=False)
    expect("status after delete", status, 404)
    print(f"deleted it: {body['message']}")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (Mismatch, KeyError, TypeError, ValueError, OSError) as error:
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
