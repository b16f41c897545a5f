"""The pytest plugin: pytest loads it by its `pytest11` entry point, so a test only names the fixtures.

- ``loyalty_mock``: one server for the session, from the npm package installed in the project (the nearest
  node_modules/.bin/loyalty-mock from the rootdir or the current folder up), from an image with
  ``--loyalty-mock-image``, or one already running with ``--loyalty-mock-url``.
- ``loyalty_project``: a fresh project for each test, copied from the demo project's fixtures (the ini option
  ``loyalty_mock_template`` names another), deleted after the test; a failed test's report shows its journal.
"""

import os
from pathlib import Path

import pytest

from .server import LoyaltyMock, LoyaltyProject, find_package_bin, start_from_image, start_from_package


def pytest_addoption(parser):
    group = parser.getgroup("loyalty-mock")
    group.addoption(
        "--loyalty-mock-image",
        default=None,
        help="run this Docker image (docker build -t loyalty-mock . in a clone) instead of the npm package",
    )
    group.addoption(
        "--loyalty-mock-url",
        default=None,
        help="use the server running at this URL (its admin token from LOYALTY_MOCK_ADMIN_TOKEN) instead of starting one",
    )
    parser.addini("loyalty_mock_template", default="demo", help="the project each loyalty_project is copied from")


@pytest.fixture(scope="session")
def loyalty_mock(request, tmp_path_factory):
    """The session's loyalty-mock server: url, admin_token, control (its control API) and log_dir."""
    config = request.config
    url = config.getoption("--loyalty-mock-url")
    if url:
        yield LoyaltyMock(url.rstrip("/"), os.environ.get("LOYALTY_MOCK_ADMIN_TOKEN") or None)
        return
    log_dir = tmp_path_factory.mktemp("loyalty-mock")
    image = config.getoption("--loyalty-mock-image")
    if image:
        server = start_from_image(image, log_dir)
    else:
        server = start_from_package(find_package_bin([config.rootpath, Path.cwd()]), log_dir)
    try:
        yield server.mock
    finally:
        server.stop()


@pytest.fixture
def loyalty_project(loyalty_mock, request):
    """A project of this test's own: id, url, app_id, app_token, headers, control, and request() for a call."""
    project = loyalty_mock.new_project(request.config.getini("loyalty_mock_template"))
    yield project
    project.control.delete()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report shows what its project's journal holds: what was sent, and what came back."""
    outcome = yield
    report = outcome.get_result()
    project = getattr(item, "funcargs", {}).get("loyalty_project")
    if report.when == "call" and report.failed and isinstance(project, LoyaltyProject):
        try:
            report.sections.append(("loyalty-mock journal", project.journal_text()))
        except Exception as error:  # noqa: BLE001 - the report must not fail for want of the journal
            report.sections.append(("loyalty-mock journal", f"could not be read: {error}"))
