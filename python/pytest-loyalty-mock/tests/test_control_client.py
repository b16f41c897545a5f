"""The plugin's own tests: its fixtures, and every method of its control client against a real server.

Run with the plugin installed and loyalty-mock's npm package in a node_modules above the folder pytest runs in
(the repository's slow tier does both, offline). The last test fails on a method no test here called.
"""

import http.server
import threading
import time

import pytest

from pytest_loyalty_mock import ControlClient, ControlError, LoyaltyMock, ProjectControl

CALLED = set()


def recorded(target, prefix):
    """The object with each public method call recorded by name."""

    class Recorder:
        def __getattr__(self, name):
            value = getattr(target, name)
            if callable(value) and not name.startswith("_"):
                CALLED.add(f"{prefix}.{name}")
            return value

    return Recorder()


@pytest.fixture
def control(loyalty_mock):
    return recorded(loyalty_mock.control, "ControlClient")


@pytest.fixture
def project(loyalty_project):
    return recorded(loyalty_project.control, "ProjectControl")


@pytest.fixture
def receiver():
    """A webhook receiver on loopback that answers 200 and counts what it got."""
    got = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - the standard library's name
            got.append(self.rfile.read(int(self.headers["Content-Length"])))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks", got
    server.shutdown()


def settled(project, delivery_id, deadline=10):
    """The delivery once it is no longer pending (a receiver on loopback answers within the deadline)."""
    until = time.monotonic() + deadline
    while time.monotonic() < until:
        [delivery] = [one for one in project.deliveries() if one["id"] == delivery_id]
        if delivery["status"] != "pending":
            return delivery
        time.sleep(0.05)
    raise AssertionError(f"delivery {delivery_id} still pending after {deadline} s")


def test_the_session_server_has_a_token_and_the_fixtures_see_it(loyalty_mock, control):
    assert isinstance(loyalty_mock, LoyaltyMock)
    assert control.health()["control"] == "token"
    assert "addMember" in [operation["name"] for operation in control.operations()]
    with pytest.raises(ControlError) as refused:
        ControlClient(loyalty_mock.url).projects()
    assert (refused.value.status, refused.value.key) == (401, "unauthorized")


def test_each_test_gets_a_project_of_its_own(loyalty_mock, loyalty_project, control):
    assert loyalty_project.id in [listed["id"] for listed in control.projects()]
    assert loyalty_project.url == loyalty_mock.url
    assert loyalty_project.headers == {"X-App-Id": loyalty_project.app_id, "X-App-Token": loyalty_project.app_token}
    assert isinstance(loyalty_project.control, ProjectControl)
    created = control.create_project(template="demo", project_id="made-here")
    assert created["project_id"] == "made-here"
    made = recorded(control.project("made-here"), "ProjectControl")
    assert made.delete()["deleted"] is True
    with pytest.raises(ControlError) as gone:
        made.get()
    assert (gone.value.status, gone.value.key) == (404, "not_found")


def test_project_settings_keys_and_clock(project):
    assert project.get()["object"] == "project"
    assert project.keys()[0]["status"] == "ACTIVE"
    assert project.settings()["effective"]["journal_size"] == 1000
    assert project.update_settings(journal_size=40)["settings"]["journal_size"] == 40
    before = project.clock()["now"]
    moved = project.move_clock(advance_seconds=3600, freeze=True)
    assert moved["frozen"] is True and moved["now"] > before


def test_faults_and_the_journal(loyalty_project, project):
    rule = project.add_fault("/v1/locations/*", "error", status=503)
    assert [fault["id"] for fault in project.faults()] == [rule["id"]]
    assert loyalty_project.request("GET", "/v1/locations/loc_demo_circle")[0] == 503
    assert project.delete_fault(rule["id"])["deleted"] is True
    assert loyalty_project.request("GET", "/v1/locations/loc_demo_circle")[0] == 200
    project.add_fault("/v1/locations/*", "drop")
    assert project.clear_faults()["deleted"] == 1
    # The fault's 503 names the operation whose route the request took, as the served 200 does.
    served = project.requests(operation="getLocation", status=[200, "5xx"], method=["GET"])
    assert [entry["status"] for entry in served] == [503, 200]
    assert project.clear_requests()["deleted"] == 2
    assert project.requests() == []


def test_snapshots(project):
    assert project.save_snapshot("start")["name"] == "start"
    with pytest.raises(ControlError) as taken:
        project.save_snapshot("start")
    assert (taken.value.status, taken.value.key) == (409, "conflict")
    assert project.save_snapshot("start", replace=True)["name"] == "start"
    assert [snapshot["name"] for snapshot in project.snapshots()] == ["start"]
    assert project.restore_snapshot("start")["object"] == "project"
    assert project.delete_snapshot("start")["deleted"] is True


def test_webhooks_and_the_outbox(loyalty_project, project, receiver):
    url, got = receiver
    endpoint = project.add_webhook(url, events=["voucher.published"])
    assert [webhook["id"] for webhook in project.webhooks()] == [endpoint["id"]]
    status, _ = loyalty_project.request(
        "POST", "/v1/loyalties/camp_demo_loyalty/members", {"customer": {"source_id": "py@example.com"}}
    )
    assert status == 200
    [queued] = project.deliveries(type="voucher.published", webhook_id=endpoint["id"])
    assert settled(project, queued["id"])["status"] == "delivered"
    assert project.resend_delivery(queued["id"])["status"] == "pending"
    settled(project, queued["id"])
    assert len(got) == 2
    assert project.clear_deliveries() is None
    assert project.deliveries() == []
    assert project.delete_webhook(endpoint["id"]) is None


def test_reset_and_reset_all(loyalty_project, project, control):
    loyalty_project.request("GET", "/v1/locations/loc_demo_circle")
    assert project.reset()["counts"]["requests"] == 0
    assert loyalty_project.id in [listed["id"] for listed in control.reset_all()]


def test_every_method_was_called():
    methods = {
        f"{cls.__name__}.{name}"
        for cls in (ControlClient, ProjectControl)
        for name, value in vars(cls).items()
        if callable(value) and not name.startswith("_")
    }
    assert sorted(methods - CALLED) == []
