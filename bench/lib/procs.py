"""Child processes of a bench run: started with their logs in files, found by their log lines,
stopped with SIGTERM (then SIGKILL), and all of them killed when the run ends however it ends."""

import ctypes
import os
import re
import resource
import signal
import subprocess
import sys
import time

_children = []
_started = time.monotonic()


def say(line):
    """A progress line on stderr, with the seconds since the start (stdout carries only results)."""
    print(f"bench [{time.monotonic() - _started:4.0f}s]: {line}", file=sys.stderr, flush=True)


def _die_with_parent():
    """Runs in the child before exec: SIGTERM it when the bench process dies (PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    except OSError:
        pass


class Service:
    """One long-running binary whose stderr goes to `log_path`."""

    def __init__(self, name, argv, log_path, env=None):
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, "wb")
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                                        env=env, preexec_fn=_die_with_parent)
        _children.append(self)

    @property
    def pid(self):
        return self.process.pid

    def running(self):
        return self.process.poll() is None

    def log_text(self):
        with open(self.log_path, "r", errors="replace") as handle:
            return handle.read()

    def wait_for(self, pattern, timeout, what=None):
        """Waits for a log line matching `pattern`; returns its match. Fails if the process exits."""
        regex = re.compile(pattern, re.MULTILINE)
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.log_text())
            if match:
                return match
            if not self.running():
                raise RuntimeError(f"{self.name} exited ({self.process.returncode}) before "
                                   f"{what or pattern!r}; last log lines:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: no {what or pattern!r} within {timeout:.0f} s; "
                                   f"last log lines:\n{self.tail()}")
            time.sleep(0.05)

    def endpoint(self, event="listening", timeout=30):
        """The endpoint from the `<event> ... svc.endpoint=URL` log line."""
        match = self.wait_for(rf" {event}\b.*\bsvc\.endpoint=(\S+)", timeout, f"'{event} svc.endpoint=' line")
        return match.group(1)

    def tail(self, lines=8):
        return "\n".join(self.log_text().splitlines()[-lines:])

    def memory_kib(self):
        """(VmHWM, VmRSS) in KiB from /proc, or (None, None) once the process has gone."""
        values = {}
        try:
            with open(f"/proc/{self.pid}/status") as handle:
                for line in handle:
                    key, _, rest = line.partition(":")
                    if key in ("VmHWM", "VmRSS"):
                        values[key] = int(rest.split()[0])
        except OSError:
            pass
        return values.get("VmHWM"), values.get("VmRSS")

    def stop(self, grace=5.0):
        """SIGTERM, then SIGKILL after `grace` seconds; returns the exit status."""
        if self.running():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                say(f"{self.name} did not stop on SIGTERM; killing it")
                self.process.kill()
                self.process.wait()
        self._log.close()
        if self in _children:
            _children.remove(self)
        return self.process.returncode


def cpu_seconds(pid):
    """CPU time (user + system, all threads) process `pid` has used so far; None once it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rpartition(")")[2].split()
    except OSError:
        return None
    # After the command's closing parenthesis: state is field 3, utime 14 and stime 15 (proc(5)).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    """CPU time (user + system) used so far by the child processes this one has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def stop_all():
    """Stops every child still running (newest first)."""
    for child in list(reversed(_children)):
        try:
            child.stop(grace=3.0)
        except Exception:  # noqa: BLE001 - cleanup must go on
            pass


def install_cleanup():
    """Stops every child on normal exit, on SIGTERM/SIGINT/SIGHUP (exit 130/143)."""
    import atexit
    atexit.register(stop_all)

    def on_signal(number, _frame):
        say(f"signal {number}: stopping every process started")
        stop_all()
        os._exit(128 + number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, on_signal)


class pinned:
    """While open, runs every thread of the `pids` on `server` CPUs and gives the CPUs a client
    should run on: `same` puts client and server on one core (at 1 in flight they take turns, and
    this is the stable, lowest floor), `cross` on two, `none` leaves it to the scheduler (whose
    choice flips p50 at 1 in flight between ~35 and ~85 µs on this VM). Restored on close."""

    def __init__(self, pids, mode):
        allowed = sorted(os.sched_getaffinity(0))
        self.everywhere = set(allowed)
        self.pids = pids if mode != "none" and len(allowed) > 1 else []
        self.server = {allowed[-1]}
        self.client = ({allowed[-1]} if mode == "same" else {allowed[0]}) if self.pids else None

    def _apply(self, cpus):
        for pid in self.pids:
            try:
                threads = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for thread in threads:
                try:
                    os.sched_setaffinity(int(thread), cpus)
                except OSError:
                    pass

    def __enter__(self):
        self._apply(self.server)
        return self.client

    def __exit__(self, *_):
        self._apply(self.everywhere)


def run(argv, timeout, what, stderr_sink=None, cpus=None, expected=(0,)):
    """Runs a command to completion; returns (exit status, stdout text). Stderr goes to ours
    only when the command exits with a status not `expected` (its progress lines are noise
    otherwise), and to `stderr_sink(text)` when given; on the `cpus` given."""
    def prepare():
        _die_with_parent()
        if cpus:
            os.sched_setaffinity(0, cpus)
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                            preexec_fn=prepare)
    if stderr_sink:
        stderr_sink(result.stderr.decode(errors="replace"))
    if result.returncode not in expected:
        say(f"{what}: exit {result.returncode}; stderr tail:\n"
            + "\n".join(result.stderr.decode(errors="replace").splitlines()[-6:]))
    return result.returncode, result.stdout.decode(errors="replace")
