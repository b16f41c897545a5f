"""A client of loyalty-mock's control API, method for method the Node one's (loyalty-mock/control-client).

Each method is one call (docs/reference/control-api.md); a list comes back as its list, and a refusal is raised as
a ControlError carrying the service's error object. Standard library only.
"""

import json
import urllib.error
import urllib.parse
import urllib.request


class ControlError(Exception):
    """A control call the server refused: its status and the service's error object (key, message, details)."""

    def __init__(self, call, status, body):
        error = body if isinstance(body, dict) else {}
        self.status = status
        self.key = error.get("key")
        self.details = error.get("details")
        self.body = body
        said = self.details or error.get("message")
        super().__init__(f"{call}: {status}{' ' + self.key if self.key else ''}{': ' + said if said else ''}")


def _segment(value):
    return urllib.parse.quote(str(value), safe="")


def _query(filters):
    """The filters given, a list sent comma-separated; None leaves one out."""
    pairs = []
    for name, value in filters.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(str(one) for one in value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((name, str(value)))
    return f"?{urllib.parse.urlencode(pairs)}" if pairs else ""


def _given(**fields):
    """The fields given: None leaves one out, as the Node client's undefined does."""
    return {name: value for name, value in fields.items() if value is not None}


class _Sender:
    """One server's calls: the admin token sent when there is one, JSON in and out."""

    def __init__(self, url, admin_token=None, timeout=30):
        self.base = f"{url.rstrip('/')}/__mock"
        self.admin_token = admin_token
        self.timeout = timeout

    def __call__(self, method, path, body=None, query=None):
        request = urllib.request.Request(f"{self.base}{path}{_query(query or {})}", method=method)
        request.add_header("Accept", "application/json")
        if self.admin_token is not None:
            request.add_header("X-Mock-Admin-Token", self.admin_token)
        if body is not None:
            request.data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, text = refused.code, refused.read()
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = text.decode(errors="replace")
        if status >= 400:
            raise ControlError(f"{method} /__mock{path}", status, parsed)
        return parsed


class ProjectControl:
    """The control API of one project: each method one call."""

    def __init__(self, send, project_id):
        self._send = send
        self.id = project_id
        self._path = f"/projects/{_segment(project_id)}"

    def _call(self, method, path="", body=None, query=None):
        return self._send(method, f"{self._path}{path}", body, query)

    def _list(self, key, path, query=None):
        return self._call("GET", path, query=query)[key]

    # The project itself.
    def get(self):
        return self._call("GET")

    def delete(self):
        return self._call("DELETE")

    def reset(self):
        """Back to its fixtures (or its template's): records, clock, journal, faults and outbox."""
        return self._call("POST", "/reset")

    def keys(self):
        return self._list("api_keys", "/keys")

    # Its clock.
    def clock(self):
        return self._call("GET", "/clock")

    def move_clock(self, advance_seconds=None, set=None, freeze=None):  # noqa: A002 - the API's own name
        """advance_seconds, or set (an ISO 8601 instant), and/or freeze (True: stands still; False: runs again)."""
        return self._call("POST", "/clock", _given(advance_seconds=advance_seconds, set=set, freeze=freeze))

    # Its settings.
    def settings(self):
        return self._call("GET", "/settings")

    def update_settings(self, **patch):
        """The fields given replace the project's own; None removes one, so the server's default applies."""
        return self._call("PATCH", "/settings", patch)

    # Fault rules.
    def faults(self):
        return self._list("faults", "/faults")

    def add_fault(self, path, action, **rule):
        """A rule for calls to `path` (a pattern): action error (with status), delay, drop or truncate."""
        return self._call("POST", "/faults", {"path": path, "action": action, **_given(**rule)})

    def delete_fault(self, fault_id):
        return self._call("DELETE", f"/faults/{_segment(fault_id)}")

    def clear_faults(self):
        return self._call("DELETE", "/faults")

    # The request journal, oldest first.
    def requests(self, **filters):
        """Filters: method, path, operation, status (lists allowed), since, until, limit."""
        return self._list("requests", "/requests", filters)

    def clear_requests(self):
        return self._call("DELETE", "/requests")

    # Named snapshots.
    def snapshots(self):
        return self._list("snapshots", "/snapshots")

    def save_snapshot(self, name, replace=None):
        return self._call("POST", "/snapshots", {"name": name, **_given(replace=replace)})

    def restore_snapshot(self, name):
        return self._call("POST", f"/snapshots/{_segment(name)}/restore")

    def delete_snapshot(self, name):
        return self._call("DELETE", f"/snapshots/{_segment(name)}")

    # Webhook endpoints, and the outbox of what was sent (or would have been).
    def webhooks(self):
        return self._list("webhooks", "/webhooks")

    def add_webhook(self, url, **endpoint):
        return self._call("POST", "/webhooks", {"url": url, **_given(**endpoint)})

    def delete_webhook(self, webhook_id):
        return self._call("DELETE", f"/webhooks/{_segment(webhook_id)}")

    def deliveries(self, **filters):
        """Filters: type, status, webhook_id, limit."""
        return self._list("deliveries", "/webhooks/deliveries", filters)

    def clear_deliveries(self):
        return self._call("DELETE", "/webhooks/deliveries")

    def resend_delivery(self, delivery_id):
        return self._call("POST", f"/webhooks/deliveries/{_segment(delivery_id)}/resend")


class ControlClient:
    """A loyalty-mock server's control API: the server's calls here, each project's on project(id)."""

    def __init__(self, url, admin_token=None, timeout=30):
        self.url = url
        self._send = _Sender(url, admin_token, timeout)

    def health(self):
        return self._send("GET", "/health")

    def operations(self):
        """The operations the server emulates, by the names the journal and fault rules use."""
        return self._send("GET", "/operations")["operations"]

    def projects(self):
        return self._send("GET", "/projects")["projects"]

    def create_project(self, request=None, **fields):
        """A project of its own: create_project(template="demo"), or a whole project document as `request`."""
        return self._send("POST", "/projects", {**(request or {}), **_given(**fields)})

    def project(self, project_id):
        """One project's calls (no call is made until one of them is)."""
        return ProjectControl(self._send, project_id)

    def reset_all(self):
        """Every project back to its fixtures, all or nothing."""
        return self._send("POST", "/reset")["projects"]
