"""One run of the lab: network up, services up and synchronised, load with faults, checks, teardown."""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import zmq

from . import wire
from .actions import START_TIMEOUT, FaultActions
from .faults import FaultRunner
from .load import UTTERANCE, PLACES, LoadRun
from .network import Network
from .report import build_summary
from .services import LOOKUPS, PROCESSES, ROUTERS, START_ORDER, Endpoints, ServiceProcess, arguments


class SetupFailed(Exception):
    """The lab could not be brought to the point where the load starts."""


def say(message):
    print(f"netns: {message}", file=sys.stderr, flush=True)


class Lab:
    def __init__(self, options):
        self.options = options
        self.bin_dir = pathlib.Path(options.bin_dir)
        self.network = Network(options.prefix)
        self.endpoints = Endpoints()
        self.processes = {}
        self.ctx = None
        self.load = None
        self.runner = None
        self.keep = bool(options.keep or options.log_dir)
        self.work = None
        self.feeds = []
        self.expected_version = None
        self.snapshots = []
        self.actions = FaultActions(self)

    # -- the run ----------------------------------------------------------------------------

    def run(self):
        options = self.options
        self._make_work_dir()
        say(f"work directory {self.work}; namespaces {options.prefix}-*")
        self.network.up()
        self.network.enter("client")
        self.ctx = zmq.Context()
        self._generate_feeds()
        self._start_services()
        setup = {"ingestVersion": self._ingest_feeds()}
        setup["replicasSyncedSeconds"] = self._wait_replicas(self.expected_version, "after the first ingest")
        setup["warmUp"] = self._warm_up()
        self.load = LoadRun(self.ctx, self.endpoints.router, options.concurrency, options.users,
                            options.attempt_timeout, options.ask_deadline, options.bench, options.rate)
        self._settle_client_sockets()
        self.snapshot("load start")
        pace = f"{options.rate:g} asks/s" if options.rate else "closed loop"
        say(f"load: {options.duration:g} s, {options.concurrency} clients, {pace}; faults: "
            f"{', '.join(map(str, options.fault_list)) or 'none'}")
        t0 = time.monotonic()
        runner = self.runner = FaultRunner(options.fault_list, t0, self.actions.apply)
        runner.start()
        results = self.load.run(t0, options.duration)
        runner.stop()
        say(f"load done in {results.finished - t0:.1f} s; restoring links, checking the replicas")
        self._heal()
        final_versions, converged_after = self._final_versions()
        self.snapshot("end")
        summary = build_summary(self, results, runner.log, setup, final_versions, converged_after)
        return summary

    def _make_work_dir(self):
        if self.options.log_dir:
            self.work = pathlib.Path(self.options.log_dir).resolve()
            self.work.mkdir(parents=True, exist_ok=True)
        else:
            self.work = pathlib.Path(tempfile.mkdtemp(prefix=f"fb-netns-{os.getpid()}-"))
        (self.work / "logs").mkdir(exist_ok=True)

    def _generate_feeds(self):
        out = self.work / "feeds"
        command = [str(self.bin_dir / "fuelboard"), "generate", "--out", str(out),
                   "--stations", str(self.options.stations), "--seed", str(self.options.seed)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise SetupFailed(f"fuelboard generate failed: {result.stderr.strip()}")
        self.feeds = sorted(out.glob("*.json"))
        if not self.feeds:
            raise SetupFailed(f"fuelboard generate wrote no feeds into {out}")

    def _start_services(self):
        for name in START_ORDER:
            binary, host = PROCESSES[name]
            data = self.work / "data" / name
            data.mkdir(parents=True, exist_ok=True)
            args = arguments(name, self.endpoints, data, self.options.log_level, self.options.router_deadline)
            process = ServiceProcess(name, self.bin_dir / binary, self.network.namespace(host), args,
                                     self.work / "logs" / f"{name}.log")
            self.processes[name] = process
            process.start()
        for name, process in self.processes.items():
            endpoint = self.endpoints.of(name).replace(".", r"\.")
            if not process.wait_for_log(rf"listening svc\.endpoint={endpoint}\b", START_TIMEOUT):
                raise SetupFailed(f"{name} did not start listening within {START_TIMEOUT:g} s; "
                                  f"its log:\n{process.tail()}")
        everyone = {name: self.endpoints.of(name) for name in self.processes}
        deadline = time.monotonic() + START_TIMEOUT
        answered = {}
        while len(answered) < len(everyone) and time.monotonic() < deadline:
            missing = {name: endpoint for name, endpoint in everyone.items() if name not in answered}
            answered.update(wire.gather(self.ctx, missing, "sys.ping", timeout=0.5))
        missing = sorted(set(everyone) - set(answered))
        if missing:
            raise SetupFailed(f"no sys.ping reply across the network from {', '.join(missing)}")
        say(f"{len(everyone)} services answer sys.ping across the network")

    def _ingest_feeds(self):
        command = [str(self.bin_dir / "fuelboard"), "ingest", str(self.work / "feeds"),
                   "--ingest", self.endpoints.ingest, "--json", "--timeout", "30s"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=180)
        if result.returncode != 0:
            raise SetupFailed(f"fuelboard ingest failed ({result.returncode}): {result.stderr.strip()[-500:]}")
        try:
            versions = [item["reply"]["version"] for item in json.loads(result.stdout)]
        except (ValueError, KeyError, TypeError) as error:
            raise SetupFailed(f"unreadable fuelboard ingest --json output ({error})") from error
        self.expected_version = max(versions)
        say(f"ingested {len(versions)} sample feeds across the network: version {self.expected_version}")
        return self.expected_version

    def lookup_details(self, names=LOOKUPS, timeout=0.5):
        """{replica: sys.stats details} of the replicas that answered."""
        endpoints = {name: self.endpoints.lookup[name] for name in names}
        return {name: body.get("details") or {} for name, body in
                wire.stats_bodies(self.ctx, endpoints, timeout).items()}

    def _wait_replicas(self, version, when):
        """Waits until every running replica serves `version`; returns the seconds it took."""
        began = time.monotonic()
        deadline = began + self.options.converge_timeout
        running = [name for name in LOOKUPS if self.processes[name].running()]
        while True:
            details = self.lookup_details(running)
            if all(details.get(name, {}).get("version") == version and details[name].get("synced")
                   for name in running):
                took = time.monotonic() - began
                say(f"{' and '.join(running)} serve version {version} {when} ({took:.2f} s)")
                return round(took, 3)
            if time.monotonic() >= deadline:
                seen = {name: details.get(name, {}).get("version") for name in running}
                raise SetupFailed(f"replicas did not reach version {version} {when} within "
                                  f"{self.options.converge_timeout:g} s: {seen}")
            time.sleep(0.1)  # poll interval

    def _warm_up(self):
        """One ask per router; each must be answered with code success."""
        codes = {}
        for index, router in enumerate(ROUTERS):
            body = {"user": f"warmup{index + 1}", "utterance": UTTERANCE,
                    "location": {"lat": PLACES[0][0], "lng": PLACES[0][1]}}
            reply = wire.call(self.ctx, self.endpoints.router[router], "assistant.ask", body, timeout=5.0)
            answer = (reply or {}).get("body") or {}
            if not reply or reply.get("ok") is not True or answer.get("code") != "success":
                raise SetupFailed(f"{router} did not answer the warm-up ask with success: {reply!r}")
            codes[router] = answer.get("dialog")
        say(f"both routers answer: {codes[ROUTERS[0]]!r}")
        return codes

    def _settle_client_sockets(self):
        """Waits (at most 2 s) until every load socket has its connection, so the first asks are not refused."""
        deadline = time.monotonic() + 2.0
        for client in self.load.clients:
            for sock in client.sockets.values():
                while sock.getsockopt(zmq.EVENTS) & zmq.POLLOUT == 0 and time.monotonic() < deadline:
                    time.sleep(0.01)

    # -- faults -----------------------------------------------------------------------------

    def snapshot(self, label):
        """sys.stats of every running service, with which life of it answered."""
        names = [name for name, process in self.processes.items() if process.running() and not process.paused]
        bodies = wire.stats_bodies(self.ctx, {name: self.endpoints.of(name) for name in names}, timeout=0.5)
        at = round(time.monotonic() - self.load.started, 3) if self.load and self.load.started else None
        self.snapshots.append({"label": label, "at": at,
                               "lives": {name: self.processes[name].life for name in bodies},
                               "stats": bodies})

    # -- the end ----------------------------------------------------------------------------

    def _heal(self):
        for host in sorted(self.network.cut_hosts):
            self.network.restore(host)
            say(f"restored the link of {host}")
        for process in self.processes.values():
            if process.running() and process.paused:
                process.signal(signal.SIGCONT)
                say(f"resumed {process.name}")

    def _final_versions(self):
        """Waits for the running replicas to reach price-ingest's version; returns (versions, seconds or None)."""
        reply = wire.call(self.ctx, self.endpoints.ingest, "ingest.snapshot", {}, timeout=2.0)
        if reply and reply.get("ok") is True:
            self.expected_version = reply["body"].get("version", self.expected_version)
        try:
            took = self._wait_replicas(self.expected_version, "at the end")
        except SetupFailed as error:
            say(str(error))
            took = None
        details = self.lookup_details()
        versions = {"ingest": self.expected_version}
        for name in LOOKUPS:
            versions[name] = details.get(name, {}).get("version") if self.processes[name].running() else "not running"
        return versions, took

    def cleanup(self):
        """Stops every process, removes the namespaces and (unless kept) the work directory."""
        if self.runner:
            self.runner.stop()  # no fault may start a process after this; feed updates finish first
        if self.load:
            self.load.close()
        if self.ctx:
            self.ctx.destroy(linger=0)
        for process in reversed(list(self.processes.values())):
            try:
                process.stop()
            except OSError:
                pass
        for pid in self.network.pids():
            if pid != os.getpid():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        problems = self.network.teardown()
        for problem in problems:
            say(f"cleanup: {problem}")
        if self.work:
            if self.keep:
                say(f"logs, data and feeds kept in {self.work}")
            else:
                shutil.rmtree(self.work, ignore_errors=True)
