"""Starting a loyalty-mock server for a test session, from the npm package or the image, and the projects in it."""

import json
import os
import queue
import re
import secrets
import socket
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from .control import ControlClient

#: The line the server prints on stderr once it listens, whatever its log level.
LISTENING = re.compile(r"^loyalty-mock listening on (http://\S+)$")
#: The settings the container sets itself: where it listens, and where its health check looks.
CONTAINER_OWN = {"LOYALTY_MOCK_HOST", "LOYALTY_MOCK_PORT", "LOYALTY_MOCK_HEALTH_FILE"}


class LoyaltyProject:
    """A project of one test's own: its id, the server's url, its key pair, and its control calls."""

    def __init__(self, mock, created):
        self.id = created["project_id"]
        self.url = mock.url
        self.app_id = created["app_id"]
        self.app_token = created["app_token"]
        self.control = mock.control.project(self.id)

    def __repr__(self):
        return f"LoyaltyProject(id={self.id!r}, url={self.url!r}, app_id={self.app_id!r})"

    @property
    def headers(self):
        """The key pair as the service's headers."""
        return {"X-App-Id": self.app_id, "X-App-Token": self.app_token}

    def request(self, method, path, json_body=None, form=None, bearer=None):
        """One call to the service's API with the project's keys (or a bearer token): (status, parsed answer)."""
        request = urllib.request.Request(f"{self.url}{path}", method=method)
        for name, value in ({"Authorization": f"Bearer {bearer}"} if bearer else self.headers).items():
            request.add_header(name, value)
        if json_body is not None:
            request.data = json.dumps(json_body).encode()
            request.add_header("Content-Type", "application/json")
        if form is not None:
            request.data = urllib.parse.urlencode(form).encode()
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, text = refused.code, refused.read()
        return status, json.loads(text) if text else None

    def journal_text(self):
        """The project's journal in lines, as a failed test's report shows it."""
        lines = []
        for entry in self.control.requests():
            body = entry.get("response_body")
            said = f" {body.get('key')}: {body.get('details', '')}" if isinstance(body, dict) and "key" in body else ""
            lines.append(f"{entry['method']} {entry['path']} -> {entry['status']}{said}")
        return "\n".join(lines) or "(no calls)"


class LoyaltyMock:
    """The session's server: its url, its admin token, and its control API."""

    def __init__(self, url, admin_token=None, log_dir=None):
        self.url = url
        self.admin_token = admin_token
        self.log_dir = log_dir
        self.control = ControlClient(url, admin_token)

    def new_project(self, template="demo", **fields):
        """A project copied from a loaded project's fixtures, under a fresh id and fresh keys."""
        return LoyaltyProject(self, self.control.create_project(template=template, **fields))


def find_package_bin(starts):
    """node_modules/.bin/loyalty-mock in the first of `starts` or a folder above it that has one, as npm finds it."""
    for start in starts:
        for folder in [Path(start).resolve(), *Path(start).resolve().parents]:
            found = folder / "node_modules" / ".bin" / "loyalty-mock"
            if found.exists():
                return found
    raise RuntimeError(
        "loyalty-mock: no node_modules/.bin/loyalty-mock in the rootdir, the current folder or a folder above them: "
        "npm install the package there, or run the image with --loyalty-mock-image"
    )


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A server process the plugin started: stopped with SIGTERM at the end, on which it exits 0."""

    def __init__(self, command, env, log_dir, admin_token, timeout=60):
        self.log_dir = Path(log_dir)
        self._stdout = open(self.log_dir / "server.log", "wb")  # noqa: SIM115 - open while the server runs
        self._stderr = open(self.log_dir / "server.err", "w", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, stdout=self._stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True
        )
        try:
            url = self._address(timeout)
        except BaseException:
            self.stop(check=False)
            raise
        self.mock = LoyaltyMock(url, admin_token, self.log_dir)

    def _address(self, timeout):
        """The URL of the start line; stderr is copied to server.err for as long as the server runs."""
        lines = queue.Queue()

        def copy():
            for line in self.process.stderr:
                self._stderr.write(line)
                self._stderr.flush()
                lines.put(line)
            lines.put(None)

        threading.Thread(target=copy, daemon=True).start()
        said = []
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                raise RuntimeError(f"loyalty-mock did not start within {timeout} s: {''.join(said)}") from None
            if line is None:
                raise RuntimeError(f"loyalty-mock stopped: {''.join(said)}")
            match = LISTENING.match(line.rstrip("\n"))
            if match:
                return match.group(1)
            said.append(line)

    def stop(self, check=True):
        """SIGTERM, as Ctrl-C: in-flight requests answered, state saved, exit 0 (checked unless told not to)."""
        self.process.terminate()
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self._stdout.close()
        if check and status != 0:
            raise RuntimeError(f"loyalty-mock exited with status {status}; its logs are in {self.log_dir}")


def start_from_package(bin_path, log_dir):
    """The npm package's command on a free loopback port, with an admin token of its own."""
    token = secrets.token_hex(16)
    command = [str(bin_path), "--port", "0", "--admin-token", token]
    return Server(command, os.environ.copy(), log_dir, token)


def start_from_image(image, log_dir):
    """The image, its port published on the host's loopback, the job's LOYALTY_MOCK_ settings passed on."""
    token = secrets.token_hex(16)
    # The image listens on LOYALTY_MOCK_PORT inside; the same port on the host keeps its start line's address true.
    port = _free_port()
    env = {**os.environ, "LOYALTY_MOCK_ADMIN_TOKEN": token}
    passed = [name for name in env if name.startswith("LOYALTY_MOCK_") and name not in CONTAINER_OWN]
    command = ["docker", "run", "--rm", "-p", f"127.0.0.1:{port}:{port}", "-e", f"LOYALTY_MOCK_PORT={port}"]
    for name in sorted(passed):
        command += ["-e", name]  # by name only: docker reads the value, which stays off the command line
    return Server([*command, image], env, log_dir, token)
