"""Outside checks for the FuelBoard bus: the real binaries, driven over ZeroMQ from Python.

How to run (from the repository root):

    swift build --product price-ingest && swift build --product fuel-lookup
    python3 -m pip install -r Tests/python/requirements.txt     # pyzmq, pytest
    python3 -m pytest Tests/python -q

Settings (environment):
    FUELBOARD_BIN_DIR       where the binaries are (default: <repo>/.build/debug)
    FUELBOARD_SHARED_DATA   the shared data folder (default: <parent of repo>/shared/data);
                            tests that need the real feeds or JSONTestSuite skip when it is absent
    FUELBOARD_TEST_TIMEOUT  seconds allowed per test phase (default 60; heavy tests set their own)

Services are started as CONTRACT.md says: `--bind tcp://127.0.0.1:*` (and `--bind-pub` for
price-ingest) in a temporary data directory; the real endpoints are read from their
`listening`/`publishing` log lines. Every process is killed in fixture teardown.
"""

import atexit
import os
import pathlib
import re
import signal
import subprocess
import threading
import time

import pytest
import zmq

from fbclient import Client

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN_DIR = pathlib.Path(os.environ.get("FUELBOARD_BIN_DIR", REPO_ROOT / ".build" / "debug"))
SHARED_DATA = pathlib.Path(os.environ.get("FUELBOARD_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
REAL_DATA = SHARED_DATA / "real"
JSON_TEST_SUITE = SHARED_DATA / "jsontestsuite" / "test_parsing"
DEFAULT_PHASE_TIMEOUT = float(os.environ.get("FUELBOARD_TEST_TIMEOUT", "60"))
START_TIMEOUT = 15.0

SHARED_DATA_ABSENT = (
    f"shared data not found at {SHARED_DATA} (set FUELBOARD_SHARED_DATA to the folder holding "
    "real/ and jsontestsuite/)"
)
needs_real_data = pytest.mark.skipif(not REAL_DATA.is_dir(), reason=SHARED_DATA_ABSENT)
needs_json_test_suite = pytest.mark.skipif(not JSON_TEST_SUITE.is_dir(), reason=SHARED_DATA_ABSENT)

_ENDPOINT_LINE = re.compile(r"\b(listening|publishing) svc\.endpoint=(\S+)")
_INDEX_VERSION = re.compile(r"\bindex swapped\b.*\bversion=(\d+)")


# -- per-test time limit --------------------------------------------------------------------

def pytest_configure(config):
    config.addinivalue_line("markers", "time_limit(seconds): per-phase time limit of a test (SIGALRM)")


class PhaseTimeout(Exception):
    pass


def _run_with_alarm(item, phase):
    marker = item.get_closest_marker("time_limit")
    seconds = float(marker.args[0]) if marker else DEFAULT_PHASE_TIMEOUT

    def on_alarm(signum, frame):
        raise PhaseTimeout(f"{item.nodeid}: {phase} took longer than {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return previous


def _clear_alarm(previous):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    previous = _run_with_alarm(item, "setup")
    try:
        yield
    finally:
        _clear_alarm(previous)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = _run_with_alarm(item, "call")
    try:
        yield
    finally:
        _clear_alarm(previous)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    previous = _run_with_alarm(item, "teardown")
    try:
        yield
    finally:
        _clear_alarm(previous)


# -- processes ------------------------------------------------------------------------------

_LIVE_PROCESSES = set()


@atexit.register
def _kill_leftovers():
    for proc in list(_LIVE_PROCESSES):
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)


def _clean_env():
    """The environment without FUELBOARD_* settings, so flags alone define the topology."""
    return {k: v for k, v in os.environ.items() if not k.startswith("FUELBOARD_")}


def binary(name):
    path = BIN_DIR / name
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} is missing: build it first (swift build --product {name}) or set FUELBOARD_BIN_DIR")
    return path


def memory_mib(pid, field="VmRSS"):
    """A process's memory figure from /proc/PID/status (VmRSS now, VmHWM its peak), in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field} for pid {pid}")


class ServiceProcess:
    """One running service binary, its stderr lines, and its endpoints."""

    def __init__(self, name, args, log_path):
        self.name = name
        self.args = [str(binary(name))] + [str(a) for a in args]
        self.log_path = log_path
        self.lines = []
        self.endpoints = {}
        self._cond = threading.Condition()
        self._log_file = open(log_path, "a", encoding="utf-8")
        self._log_file.write(f"--- start: {' '.join(self.args)}\n")
        self.proc = subprocess.Popen(
            self.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=_clean_env(), cwd=log_path.parent,
        )
        _LIVE_PROCESSES.add(self.proc)
        self._reader = threading.Thread(target=self._read_stderr, name=f"{name}-stderr", daemon=True)
        self._reader.start()

    @property
    def pid(self):
        return self.proc.pid

    def _read_stderr(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._log_file.write(line + "\n")
            self._log_file.flush()
            with self._cond:
                self.lines.append(line)
                match = _ENDPOINT_LINE.search(line)
                if match:
                    self.endpoints[match.group(1)] = match.group(2)
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def wait_for(self, predicate, timeout, what):
        """Waits until `predicate(lines)` is truthy; fails if the process exits or time runs out."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                result = predicate(self.lines)
                if result:
                    return result
                if self.proc.poll() is not None and not self._reader.is_alive():
                    raise AssertionError(
                        f"{self.name} exited with {self.proc.returncode} while waiting for {what}; "
                        f"last log lines:\n" + "\n".join(self.lines[-15:]))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.name}: no {what} within {timeout} s; last log lines:\n"
                                         + "\n".join(self.lines[-15:]))
                self._cond.wait(min(left, 0.5))

    def wait_for_endpoints(self, *kinds):
        def ready(_lines):
            return all(kind in self.endpoints for kind in kinds)
        self.wait_for(ready, START_TIMEOUT, f"endpoint log lines {kinds}")
        return [self.endpoints[kind] for kind in kinds]

    def index_version(self):
        """The highest index version fuel-lookup has logged so far (-1 when none)."""
        with self._cond:
            versions = [int(m.group(1)) for m in map(_INDEX_VERSION.search, self.lines) if m]
        return max(versions, default=-1)

    def wait_for_index_version(self, version, timeout=20.0):
        def reached(lines):
            return any(int(m.group(1)) >= version for m in map(_INDEX_VERSION.search, lines) if m)
        self.wait_for(reached, timeout, f"index version >= {version}")

    def alive(self):
        return self.proc.poll() is None

    def send_signal(self, signum):
        self.proc.send_signal(signum)

    def stop(self, signum=signal.SIGTERM, timeout=10.0):
        """Sends `signum` and returns the exit status; kills the process if it does not exit."""
        if self.proc.poll() is None:
            self.proc.send_signal(signum)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
                raise AssertionError(f"{self.name} did not exit within {timeout} s of signal {signum}")
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        self._reader.join(timeout=5)
        _LIVE_PROCESSES.discard(self.proc)
        self._log_file.close()


def start_price_ingest(data_dir, log_dir, bind="tcp://127.0.0.1:*", bind_pub="tcp://127.0.0.1:*", extra=()):
    proc = ServiceProcess("price-ingest",
                          ["--bind", bind, "--bind-pub", bind_pub, "--data-dir", data_dir, *extra],
                          pathlib.Path(log_dir) / "price-ingest.log")
    proc.wait_for_endpoints("listening", "publishing")
    return proc


def start_fuel_lookup(ingest, ingest_pub, data_dir, log_dir, bind="tcp://127.0.0.1:*"):
    proc = ServiceProcess("fuel-lookup",
                          ["--bind", bind, "--ingest", ingest, "--ingest-pub", ingest_pub, "--data-dir", data_dir],
                          pathlib.Path(log_dir) / "fuel-lookup.log")
    proc.wait_for_endpoints("listening")
    return proc


class Stack:
    """price-ingest plus a fuel-lookup replica that follows it, with a client for each."""

    def __init__(self, root, ctx):
        self.root = pathlib.Path(root)
        self.ctx = ctx
        self.ingest_data = self.root / "ingest-data"
        self.lookup_data = self.root / "lookup-data"
        self.ingest = start_price_ingest(self.ingest_data, self.root)
        self.ingest_endpoint = self.ingest.endpoints["listening"]
        self.pub_endpoint = self.ingest.endpoints["publishing"]
        self.lookup = start_fuel_lookup(self.ingest_endpoint, self.pub_endpoint, self.lookup_data, self.root)
        self.lookup_endpoint = self.lookup.endpoints["listening"]
        self.clients = []
        self.ingest_client = self.client(self.ingest_endpoint, timeout_ms=30_000)
        self.lookup_client = self.client(self.lookup_endpoint)

    def client(self, endpoint, timeout_ms=10_000):
        client = Client(self.ctx, endpoint, timeout_ms)
        self.clients.append(client)
        return client

    def ingest_feed(self, retailer, **source):
        """Ingests one feed (`feed=` or `url=`), waits until fuel-lookup serves it, returns the reply body."""
        body = self.ingest_client.call("ingest.feed", {"retailer": retailer, **source})
        self.lookup.wait_for_index_version(body["version"])
        return body

    def restart_ingest(self, signum=signal.SIGKILL):
        """Stops price-ingest with `signum` and starts it again on the same endpoints and data dir."""
        status = self.ingest.stop(signum)
        self.ingest.kill()
        self.ingest = start_price_ingest(self.ingest_data, self.root,
                                         bind=self.ingest_endpoint, bind_pub=self.pub_endpoint)
        assert self.ingest.endpoints["listening"] == self.ingest_endpoint
        assert self.ingest.endpoints["publishing"] == self.pub_endpoint
        return status

    def close(self):
        for client in self.clients:
            client.close()
        for proc in (self.lookup, self.ingest):
            proc.kill()


@pytest.fixture(scope="session")
def zmq_context():
    ctx = zmq.Context()
    yield ctx
    ctx.destroy(linger=0)


@pytest.fixture(scope="module")
def module_stack(tmp_path_factory, zmq_context):
    """A fresh price-ingest + fuel-lookup pair for one test module."""
    stack = Stack(tmp_path_factory.mktemp("stack"), zmq_context)
    yield stack
    stack.close()


@pytest.fixture
def stack(tmp_path, zmq_context):
    """A fresh price-ingest + fuel-lookup pair for one test."""
    stack = Stack(tmp_path, zmq_context)
    yield stack
    stack.close()
