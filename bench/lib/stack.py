"""Our services for one data set: price-ingest and fuel-lookup (and, when they are built, the
assistant path) on ephemeral loopback ports, with a throwaway data directory."""

import json
import os
import re
import time

from procs import Service, run, say

ANY = "tcp://127.0.0.1:*"


class Binaries:
    """Where the release binaries are, and which of them were built by this run."""

    def __init__(self, directory, built):
        self.directory = directory
        self.built = set(built)

    def path(self, name):
        return os.path.join(self.directory, name)

    def has(self, name):
        return name in self.built and os.access(self.path(name), os.X_OK)


class LookupStack:
    """price-ingest + fuel-lookup, wired to each other through the ports they logged."""

    def __init__(self, binaries, work_dir):
        self.binaries = binaries
        self.work_dir = work_dir
        self.ingest = Service("price-ingest", [binaries.path("price-ingest"), "--data-dir", work_dir, "--bind", ANY,
                                               "--bind-pub", ANY, "--log-level", "info"],
                              os.path.join(work_dir, "price-ingest.log"))
        self.ingest_endpoint = self.ingest.endpoint("listening")
        self.publish_endpoint = self.ingest.endpoint("publishing")
        self.lookup = Service("fuel-lookup", [binaries.path("fuel-lookup"), "--data-dir", work_dir, "--bind", ANY,
                                              "--ingest", self.ingest_endpoint, "--ingest-pub", self.publish_endpoint],
                              os.path.join(work_dir, "fuel-lookup.log"))
        self.lookup_endpoint = self.lookup.endpoint("listening")

    def load(self, feeds_dir, timeout):
        """Ingests every feed of `feeds_dir`, then waits until fuel-lookup has swapped in the index
        of the last ingest's version. Returns (seconds to ingest, seconds until swapped, version)."""
        started = time.monotonic()
        status, out = run([self.binaries.path("fuelboard"), "ingest", feeds_dir, "--ingest", self.ingest_endpoint,
                           "--json"], timeout=timeout, what="fuelboard ingest")
        ingested = time.monotonic() - started
        try:
            outcomes = json.loads(out)
        except ValueError:
            raise RuntimeError(f"fuelboard ingest printed no JSON (exit {status})")
        versions = [outcome["reply"]["version"] for outcome in outcomes if outcome.get("reply")]
        failed = [outcome["retailer"] for outcome in outcomes if not outcome.get("reply")]
        if failed:
            say(f"feeds refused by price-ingest: {', '.join(failed)}")
        if not versions:
            raise RuntimeError("no feed was ingested")
        version = max(versions)
        pattern = re.compile(r"index swapped .*\bversion=(\d+)")
        deadline = time.monotonic() + timeout
        while not any(int(found) >= version for found in pattern.findall(self.lookup.log_text())):
            if not self.lookup.running():
                raise RuntimeError(f"fuel-lookup exited while loading:\n{self.lookup.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"fuel-lookup did not swap in version {version} within {timeout} s")
            time.sleep(0.05)
        return ingested, time.monotonic() - started, version

    def services(self):
        return [self.ingest, self.lookup]


class AssistantStack:
    """location-cache + dialog-renderer + intent-router in front of a running fuel-lookup."""

    NAMES = ("location-cache", "dialog-renderer", "intent-router")

    def __init__(self):
        self.started = []
        self.router_endpoint = None

    def start(self, binaries, work_dir, lookup_endpoint):
        """Starts the three; raises (leaving `stop()` to clean up) when one does not come up."""
        location = self._start(binaries, work_dir, "location-cache", ["--data-dir", work_dir, "--bind", ANY])
        dialog = self._start(binaries, work_dir, "dialog-renderer", ["--bind", ANY])
        router_args = ["--bind", ANY, "--plugins", ANY, "--lookup", lookup_endpoint,
                       "--location", location.endpoint(), "--dialog", dialog.endpoint()]
        self.router = self._start(binaries, work_dir, "intent-router", router_args)
        self.router_endpoint = self.router.endpoint()

    def _start(self, binaries, work_dir, name, args):
        service = Service(name, [binaries.path(name), *args], os.path.join(work_dir, f"{name}.log"))
        self.started.append(service)
        return service

    def services(self):
        return list(self.started)

    def stop(self):
        for service in reversed(self.started):
            service.stop()
