"""The FuelBoard processes of the lab: which binary runs on which host with which flags, and a
handle on each that can start, signal and restart it and read its log.

Each process runs as `ip netns exec <host namespace> <binary> ...` (ip execs the binary, so the
pid is the service's own), with stderr appended to `<log dir>/<name>.log`; every start writes a
`--- start` marker line first, so a restarted process's log lines are told apart from the last life's.
"""

import os
import re
import signal
import subprocess
import time

from .network import Network

LOOKUP_PORT = 5553

#: name -> (binary, host). Hosts: see network.HOST_ADDRESSES.
PROCESSES = {
    "ingest": ("price-ingest", "ingest"),
    "lookup1": ("fuel-lookup", "lookup1"),
    "lookup2": ("fuel-lookup", "lookup2"),
    "location": ("location-cache", "services"),
    "dialog": ("dialog-renderer", "services"),
    "router1": ("intent-router", "router1"),
    "router2": ("intent-router", "router2"),
}
LOOKUPS = ("lookup1", "lookup2")
ROUTERS = ("router1", "router2")
START_ORDER = ("ingest", "lookup1", "lookup2", "location", "dialog", "router1", "router2")


class Endpoints:
    """The lab's endpoints: fixed ports on each host's private address."""

    def __init__(self):
        a = Network.address
        self.ingest = f"tcp://{a('ingest')}:5551"
        self.ingest_pub = f"tcp://{a('ingest')}:5552"
        self.lookup = {name: f"tcp://{a(name)}:{LOOKUP_PORT}" for name in LOOKUPS}
        self.location = f"tcp://{a('services')}:5554"
        self.dialog = f"tcp://{a('services')}:5555"
        self.router = {name: f"tcp://{a(name)}:5550" for name in ROUTERS}
        self.plugins = {name: f"tcp://{a(name)}:5556" for name in ROUTERS}

    def of(self, name):
        """The request endpoint of a process."""
        if name == "ingest":
            return self.ingest
        if name in self.lookup:
            return self.lookup[name]
        if name in self.router:
            return self.router[name]
        return {"location": self.location, "dialog": self.dialog}[name]

    def lookup_list(self):
        """What each router gets as --lookup: every replica, comma-separated."""
        return ",".join(self.lookup[name] for name in LOOKUPS)


def arguments(name, endpoints, data_dir, log_level, router_deadline):
    """The command-line flags of one process."""
    common = ["--log-level", log_level, "--data-dir", str(data_dir)]
    if name == "ingest":
        return ["--bind", endpoints.ingest, "--bind-pub", endpoints.ingest_pub, *common]
    if name in LOOKUPS:
        return ["--bind", endpoints.lookup[name], "--ingest", endpoints.ingest,
                "--ingest-pub", endpoints.ingest_pub, *common]
    if name == "location":
        return ["--bind", endpoints.location, *common]
    if name == "dialog":
        return ["--bind", endpoints.dialog, *common]
    return ["--bind", endpoints.router[name], "--plugins", endpoints.plugins[name],
            "--lookup", endpoints.lookup_list(), "--location", endpoints.location,
            "--dialog", endpoints.dialog, "--deadline", router_deadline, *common]


def clean_environment():
    """The environment without FUELBOARD_* settings, so the flags alone define the topology."""
    return {key: value for key, value in os.environ.items() if not key.startswith("FUELBOARD_")}


class ServiceProcess:
    """One service of the lab, possibly started several times (each start is a new `life`)."""

    def __init__(self, name, binary_path, namespace, args, log_path):
        self.name = name
        self.binary = PROCESSES[name][0]
        self.host = PROCESSES[name][1]
        self.command = ["ip", "netns", "exec", namespace, str(binary_path), *args]
        self.log_path = log_path
        self.proc = None
        self.life = 0
        self.paused = False
        self._life_offset = 0

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def start(self):
        """Starts a new life of the process (it must not be running)."""
        if self.running():
            raise RuntimeError(f"{self.name} is already running (pid {self.pid})")
        self.life += 1
        with open(self.log_path, "ab") as log:
            self._life_offset = log.tell()
            log.write(f"--- start life {self.life}: {' '.join(self.command)}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         env=clean_environment(), cwd=os.path.dirname(self.log_path),
                                         start_new_session=True)
        self.paused = False

    def signal(self, signum):
        """Sends a signal to the running process (raises if it is not running)."""
        if not self.running():
            raise RuntimeError(f"{self.name} is not running")
        os.kill(self.proc.pid, signum)
        if signum == signal.SIGSTOP:
            self.paused = True
        elif signum == signal.SIGCONT:
            self.paused = False

    def wait_exit(self, timeout):
        """Waits for the process to exit; returns its status or None if it is still running."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace=3.0):
        """SIGTERM (after SIGCONT if paused), then SIGKILL after `grace` seconds; returns the exit status."""
        if not self.running():
            return self.proc.returncode if self.proc else None
        if self.paused:
            os.kill(self.proc.pid, signal.SIGCONT)
        os.kill(self.proc.pid, signal.SIGTERM)
        status = self.wait_exit(grace)
        if status is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            status = self.wait_exit(5.0)
        return status

    def log_text(self, this_life_only=True):
        """The log, from the current life's start marker (or all of it)."""
        try:
            with open(self.log_path, "rb") as log:
                if this_life_only:
                    log.seek(self._life_offset)
                return log.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def wait_for_log(self, pattern, timeout):
        """Polls this life's log until `pattern` (a regex) matches; returns the match or None.

        Gives up early (None) when the process exits.
        """
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.log_text())
            if match:
                return match
            if not self.running() or time.monotonic() >= deadline:
                return None
            time.sleep(0.05)

    def tail(self, lines=15):
        return "\n".join(self.log_text(this_life_only=False).splitlines()[-lines:])
