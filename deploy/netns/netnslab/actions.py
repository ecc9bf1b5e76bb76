"""What the fault schedule does to the lab: signals, restarts, link cuts and price updates."""

import json
import threading
import time

from . import wire
from .faults import PROCESS_ACTIONS
from .services import LOOKUPS

START_TIMEOUT = 20.0
UPDATE_TIMEOUT = 10.0


class Pending:
    """A fault that takes a while (a feed sent to price-ingest): runs in its own thread so the
    schedule keeps its times; `result()` waits for it: (ok, detail)."""

    def __init__(self, work, *args):
        self.outcome = (False, "still running when the load ended")

        def run():
            try:
                self.outcome = (True, work(*args))
            except Exception as error:  # reported as the fault's outcome
                self.outcome = (False, f"{type(error).__name__}: {error}")
        self.thread = threading.Thread(target=run, name="fault-work", daemon=True)
        self.thread.start()

    def result(self, timeout):
        self.thread.join(timeout)
        return self.outcome


class FaultActions:
    """Applies one fault to the lab (`apply(fault)`, the FaultRunner's callback) and notes restarts."""

    def __init__(self, lab):
        self.lab = lab
        self.update_turn = 0
        self.lock = threading.Lock()
        self.restarts = []

    def apply(self, fault):
        if fault.action in ("cut", "restore"):
            getattr(self.lab.network, fault.action)(fault.target)
            return f"{self.lab.network.switch_port(fault.target)} {'down' if fault.action == 'cut' else 'up'}"
        if fault.action == "update":
            return Pending(self._update, fault.target)
        process = self.lab.processes[fault.target]
        if fault.action == "start":
            process.start()
            self._watch_restart(process, time.monotonic())
            return f"started, pid {process.pid}, life {process.life}"
        if fault.action in ("kill", "term", "pause"):
            self.lab.snapshot(f"before {fault}")
        process.signal(PROCESS_ACTIONS[fault.action])
        return f"signal {PROCESS_ACTIONS[fault.action].name} to pid {process.pid}"

    def _update(self, target):
        if target == "any":
            with self.lock:
                feed = self.lab.feeds[self.update_turn % len(self.lab.feeds)]
                self.update_turn += 1
        else:
            matches = [feed for feed in self.lab.feeds if feed.stem == target]
            if not matches:
                known = ", ".join(feed.stem for feed in self.lab.feeds)
                raise ValueError(f"no sample feed for retailer '{target}' ({known})")
            feed = matches[0]
        body = {"retailer": feed.stem, "feed": json.loads(feed.read_text(encoding="utf-8"))}
        reply = wire.call(self.lab.ctx, self.lab.endpoints.ingest, "ingest.feed", body, timeout=UPDATE_TIMEOUT)
        if not reply:
            raise RuntimeError(f"ingest.feed {feed.stem}: no reply from price-ingest within {UPDATE_TIMEOUT:g} s")
        if reply.get("ok") is not True:
            raise RuntimeError(f"ingest.feed {feed.stem}: {reply.get('error')}")
        version = reply["body"]["version"]
        with self.lock:
            self.lab.expected_version = max(self.lab.expected_version, version)
        return f"{feed.stem} ingested: version {version}"

    def _watch_restart(self, process, began):
        """Notes, in the background, when a restarted process listens and, for fuel-lookup, when it has
        fetched the snapshot and when it serves the index built from it (only then is it `synced`)."""
        record = {"process": process.name, "life": process.life,
                  "startedAt": round(began - self.lab.load.started, 3)}
        self.restarts.append(record)

        def watch():
            if process.wait_for_log(r"\blistening\b", START_TIMEOUT):
                record["listeningAfter"] = round(time.monotonic() - began, 3)
            if process.name not in LOOKUPS:
                return
            if process.wait_for_log(r"synchronised from snapshot", START_TIMEOUT):
                record["snapshotFetchedAfter"] = round(time.monotonic() - began, 3)
            if process.wait_for_log(r"(?s)synchronised from snapshot.*?index swapped", START_TIMEOUT):
                record["servingAfter"] = round(time.monotonic() - began, 3)
        threading.Thread(target=watch, name=f"watch-{process.name}", daemon=True).start()
