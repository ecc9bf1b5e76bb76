"""Restarts lose nothing; SIGTERM stops a service cleanly with status 0 (CONTRACT.md)."""

import json
import os
import pathlib
import sqlite3
import shutil
import signal
import subprocess
import time

import pytest

from conftest import REAL_DATA, binary, needs_real_data, start_fuel_lookup, start_price_ingest
from fbclient import Client

FOLDER = "uk-cma-snapshot-2025-10-09"
RETAILERS = ("asda", "mfg", "morrisons", "sgn", "tesco")
PROBES = [
    {"fuel": fuel, "lat": lat, "lng": lng, "radiusMiles": radius, "limit": 5}
    for fuel in ("E10", "B7", "E5", "SDV")
    for lat, lng in ((51.5072, -0.1276), (53.4808, -2.2426), (55.8642, -4.2518), (52.4862, -1.8904),
                     (50.7192, -1.8808), (54.9783, -1.6178))
    for radius in (3, 10, 25)
]


def feed(retailer):
    with open(REAL_DATA / FOLDER / f"{retailer}.json", "rb") as handle:
        return json.loads(handle.read())


def answers(client):
    """The lookup answers for PROBES, without the fields that legitimately move (version)."""
    replies = client.pipeline([("lookup.cheapest", body) for body in PROBES])
    out = []
    for reply in replies:
        assert reply.get("ok") is True, reply
        out.append([(r["station"]["id"], r["pricePence"], r["distanceMiles"], r["updated"])
                    for r in reply["body"]["results"]])
    assert any(out), "the probes found no station at all: they would prove nothing"
    return out


def snapshot_state(client):
    index = client.call("ingest.snapshot", {})
    states = {r["retailer"]: client.call("ingest.snapshot", {"retailer": r["retailer"]})
              for r in index["retailers"]}
    return index, states


@needs_real_data
@pytest.mark.time_limit(90)
def test_priceIngest_whenKilledAndRestarted_losesNothing(stack, zmq_context):
    for retailer in RETAILERS:
        stack.ingest_feed(retailer, feed=feed(retailer))
    index_before, states_before = snapshot_state(stack.ingest_client)
    assert sorted(r["retailer"] for r in index_before["retailers"]) == sorted(RETAILERS)
    answers_before = answers(stack.lookup_client)
    old_pid = stack.ingest.pid

    status = stack.restart_ingest(signal.SIGKILL)
    assert status == -signal.SIGKILL
    assert stack.ingest.pid != old_pid

    ingest = Client(zmq_context, stack.ingest_endpoint, 10_000)
    try:
        index_after, states_after = snapshot_state(ingest)
        assert index_after == index_before, "ingest.snapshot index changed across kill -9 + restart"
        for retailer in RETAILERS:
            assert states_after[retailer] == states_before[retailer], f"{retailer}'s stored state changed"
        # The replica that lived through the restart answers exactly as before.
        assert answers(stack.lookup_client) == answers_before

        # A new replica catches up from the restarted price-ingest alone and answers the same.
        fresh = start_fuel_lookup(stack.ingest_endpoint, stack.pub_endpoint, stack.root / "lookup-2", stack.root)
        try:
            fresh.wait_for_index_version(index_before["version"])
            with Client(zmq_context, fresh.endpoints["listening"], 10_000) as client:
                assert answers(client) == answers_before
        finally:
            fresh.kill()

        # Versions go on from where they were, and the surviving replica follows the new publisher.
        body = ingest.call("ingest.feed", {"retailer": "jet", "feed": feed("jet")})
        assert body["version"] > index_before["version"]
        stack.lookup.wait_for_index_version(body["version"])
        reply = stack.lookup_client.call("lookup.cheapest", {"fuel": "B7", "lat": 54.7, "lng": -1.45,
                                                             "radiusMiles": 25, "limit": 50, "retailer": "jet"})
        assert any(r["station"]["retailer"] == "jet" for r in reply["results"]), reply
    finally:
        ingest.close()


@needs_real_data
@pytest.mark.time_limit(60)
def test_fuelLookup_whenKilledAndRestarted_catchesUpAndAnswersTheSame(stack, zmq_context):
    for retailer in RETAILERS:
        stack.ingest_feed(retailer, feed=feed(retailer))
    version = stack.ingest_client.call("ingest.snapshot", {})["version"]
    before = answers(stack.lookup_client)
    stack.lookup.stop(signal.SIGKILL)
    stack.lookup.kill()
    stack.lookup = start_fuel_lookup(stack.ingest_endpoint, stack.pub_endpoint, stack.lookup_data, stack.root,
                                     bind=stack.lookup_endpoint)
    stack.lookup.wait_for_index_version(version)
    with Client(zmq_context, stack.lookup_endpoint, 10_000) as client:
        assert answers(client) == before


SIGNAL_ROUNDS = 5
BURST = 300


def start_under_test(upstream, root):
    """price-ingest when `upstream` is None, else a fuel-lookup replica of `upstream`, under `root`."""
    if upstream is None:
        return start_price_ingest(root / "data", root)
    return start_fuel_lookup(upstream.endpoints["listening"], upstream.endpoints["publishing"], root / "data", root)


def signal_rounds(tmp_path, zmq_context, service, signum, burst):
    """Starts `service` SIGNAL_ROUNDS times, signals it right after it answered (with `burst`
    more requests still queued), and returns [(status, seconds to exit, last log line)]."""
    upstream = start_price_ingest(tmp_path / "upstream-data", tmp_path) if service == "fuel-lookup" else None
    statuses = []
    try:
        for round_ in range(SIGNAL_ROUNDS):
            root = tmp_path / f"round-{round_}"
            root.mkdir()
            proc = start_under_test(upstream, root)
            try:
                with Client(zmq_context, proc.endpoints["listening"], 10_000) as client:
                    assert client.call("sys.ping")["service"] == service
                    for index in range(burst):
                        client.send_frames([json.dumps({"v": 1, "id": f"burst-{index}", "type": "sys.ping",
                                                        "body": {}}).encode()])
                    if burst:
                        client.recv_reply()
                    started = time.monotonic()
                    status = proc.stop(signum, timeout=5.0)
                statuses.append((status, round(time.monotonic() - started, 2), proc.lines[-1] if proc.lines else ""))
            finally:
                proc.kill()
    finally:
        if upstream is not None:
            upstream.kill()
    return statuses


def assert_all_clean(statuses, service, signum):
    bad = [entry for entry in statuses if entry[0] != 0]
    assert not bad, (f"{service} on {signal.Signals(signum).name}: {len(bad)}/{len(statuses)} exits were not 0 "
                     f"(status, seconds, last log line): {bad}")
    assert all(seconds < 2.0 for _, seconds, _ in statuses), statuses


@pytest.mark.parametrize("service", ["price-ingest", "fuel-lookup"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_service_whenSignalledRightAfterAnswering_exitsWithStatusZero(tmp_path, zmq_context, service, signum):
    """CONTRACT.md: SIGTERM and SIGINT stop a service cleanly with exit status 0."""
    assert_all_clean(signal_rounds(tmp_path, zmq_context, service, signum, burst=0), service, signum)


@pytest.mark.parametrize("service", ["price-ingest", "fuel-lookup"])
def test_service_whenSignalledUnderLoad_exitsWithStatusZeroWithinTwoSeconds(tmp_path, zmq_context, service):
    """SIGTERM while requests are still queued (RELIABILITY.md goal 15): exit 0 within 2 s."""
    assert_all_clean(signal_rounds(tmp_path, zmq_context, service, signal.SIGTERM, burst=BURST),
                     service, signal.SIGTERM)


STOP_SIGNALS = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGINT - 1))


@pytest.mark.parametrize("service", ["price-ingest", "fuel-lookup"])
def test_service_blocksTheStopSignalsInEveryThread(tmp_path, service):
    """A service reads SIGTERM/SIGINT through Dispatch's signalfd, which only sees a signal no
    thread takes: with it unblocked in the main thread one start in ~70 lost its SIGTERM (the
    service ran on until killed). Started from here, with nothing blocked, every thread must
    block both (the Swift tests cannot see this: their runner starts services with them blocked)."""
    upstream = start_price_ingest(tmp_path / "upstream", tmp_path) if service == "fuel-lookup" else None
    try:
        proc = start_under_test(upstream, tmp_path)
        try:
            tasks = sorted(pathlib.Path(f"/proc/{proc.pid}/task").iterdir())
            assert len(tasks) >= 3
            for task in tasks:
                status = (task / "status").read_text()
                blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
                name = (task / "comm").read_text().strip()
                assert blocked & STOP_SIGNALS == STOP_SIGNALS, f"thread {name}: SigBlk {blocked:x}"
            assert proc.stop(signal.SIGTERM, timeout=5.0) == 0
        finally:
            proc.kill()
    finally:
        if upstream is not None:
            upstream.kill()


def _block_stop_signals():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})


@pytest.mark.parametrize("service", ["price-ingest", "fuel-lookup", "location-cache", "dialog-renderer",
                                     "intent-router"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_service_signalledWhileStarting_stillExitsWithStatusZero(tmp_path, service, signum):
    """A signal that comes while a service starts waits, blocked, until the service listens for
    it; setting SIG_IGN then discarded it (POSIX) and a SIGTERM 10-50 ms after start was lost:
    the service ran on (outside check). Here the service starts with the signal blocked (the mask
    survives exec, as under a supervisor that blocks it) and is signalled at once, so the signal
    is certainly pending when the service installs its handling."""
    args = [str(binary(service)), "--bind", "tcp://127.0.0.1:*"]
    if service in ("price-ingest", "fuel-lookup", "location-cache"):
        args += ["--data-dir", str(tmp_path / "data")]
    if service == "price-ingest":
        args += ["--bind-pub", "tcp://127.0.0.1:*"]
    if service == "intent-router":
        args += ["--plugins", "tcp://127.0.0.1:*"]  # not the fixed default a running stack may hold
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={k: v for k, v in os.environ.items() if not k.startswith("FUELBOARD_")},
                            cwd=tmp_path, preexec_fn=_block_stop_signals)
    try:
        proc.send_signal(signum)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)


def test_priceIngest_whenStoppedWithSigterm_keepsItsData(stack, zmq_context):
    document = {"last_updated": "09/10/2025 11:00:00", "stations": [
        {"site_id": "gcpvj0duq3c1", "brand": "TEST", "address": "1 Test Street, London", "postcode": "SW1A 1AA",
         "location": {"latitude": 51.501, "longitude": -0.142}, "prices": {"B7": 150.9, "E10": 140.9}}]}
    body = stack.ingest_feed("testco", feed=document)
    before = stack.ingest_client.call("ingest.snapshot", {"retailer": "testco"})
    stack.restart_ingest(signal.SIGTERM)  # its exit status is checked by the signal test above
    with Client(zmq_context, stack.ingest_endpoint, 10_000) as client:
        assert client.call("ingest.snapshot", {"retailer": "testco"}) == before
        assert client.call("ingest.snapshot", {})["version"] == body["version"]


def stations_of(client, retailer):
    state = client.call("ingest.snapshot", {"retailer": retailer})
    return sorted(json.dumps(s, sort_keys=True) for s in state.get("state", state).get("stations", []))


def integrity_check(data_dir, scratch):
    """PRAGMA integrity_check on a copy of every SQLite file (with its WAL) of a stopped service."""
    results = {}
    for path in sorted(data_dir.glob("*.sqlite")) + sorted(data_dir.glob("*.db")):
        if scratch.exists():
            shutil.rmtree(scratch)
        scratch.mkdir(parents=True)
        for part in (path, path.with_name(path.name + "-wal")):
            if part.exists():
                shutil.copy2(part, scratch / part.name)
        connection = sqlite3.connect(scratch / path.name, timeout=5)
        try:
            results[path.name] = connection.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            connection.close()
    return results


@needs_real_data
@pytest.mark.time_limit(90)
def test_priceIngest_whenKilledMidIngest_keepsTheOldOrTheNewFeedWhole(stack, zmq_context):
    """kill -9 at several moments of an ingest: after restart the retailer holds exactly the old
    feed or exactly the new one (the new one whenever the ingest had been acknowledged), the
    version matches, and SQLite's integrity check passes (RELIABILITY.md goal 11)."""
    with open(REAL_DATA / "uk-cma-snapshot-2026-04-10" / "mfg.json", "rb") as handle:
        new_feed = json.loads(handle.read())
    old_feed = feed("mfg")
    new_version = stack.ingest_client.call("ingest.feed", {"retailer": "mfg", "feed": new_feed})["version"]
    new_state = stations_of(stack.ingest_client, "mfg")
    version = stack.ingest_client.call("ingest.feed", {"retailer": "mfg", "feed": old_feed})["version"]
    old_state = stations_of(stack.ingest_client, "mfg")
    assert new_state != old_state and new_version < version
    payload = json.dumps({"v": 1, "id": "mid", "type": "ingest.feed",
                          "body": {"retailer": "mfg", "feed": new_feed}}).encode()
    outcomes = []
    for delay in (0.0, 0.02, 0.08, 0.2, 0.5, 1.0):
        with Client(zmq_context, stack.ingest_endpoint, 5_000) as client:
            client.send_frames([payload])
            acknowledged = False
            try:
                client.recv_reply(timeout_ms=int(delay * 1000))  # fault injection point, not a sync
                acknowledged = True
            except AssertionError:
                pass
            stack.ingest.stop(signal.SIGKILL)
        checks = integrity_check(stack.ingest_data, stack.root / "sqlite-copy")
        assert checks and all(result == "ok" for result in checks.values()), checks
        stack.restart_ingest(signal.SIGKILL)
        with Client(zmq_context, stack.ingest_endpoint, 10_000) as client:
            state = stations_of(client, "mfg")
            stored_version = client.call("ingest.snapshot", {})["version"]
            assert state in (old_state, new_state), f"kill after {delay}s left a mixed mfg state"
            if acknowledged:
                assert state == new_state, f"an acknowledged ingest was lost (kill after {delay}s)"
            if state == new_state:
                assert stored_version == version + 1
                outcomes.append((delay, "new", acknowledged))
                version = client.call("ingest.feed", {"retailer": "mfg", "feed": old_feed})["version"]
            else:
                assert stored_version == version
                outcomes.append((delay, "old", acknowledged))
    print("kill outcomes (delay s, state, acknowledged):", outcomes)


def test_replica_whenOneRetailersSnapshotIsUnreadable_servesTheOthers(stack, zmq_context, tmp_path):
    """A damaged row in one retailer of price-ingest's store made every new or restarted replica
    answer `unavailable` for all retailers, forever: its resync was all or nothing (chaos test).
    Now it serves the others and its stats name the unreadable retailer."""
    def feed(site, lat, price):
        return {"last_updated": "09/10/2025 11:00:00", "stations": [
            {"site_id": site, "brand": "TEST", "address": "1 Test Street, London", "postcode": "SW1A 1AA",
             "location": {"latitude": lat, "longitude": -0.142}, "prices": {"B7": price}}]}
    stack.ingest_feed("goodco", feed=feed("gcpvj0duq3c1", 51.501, 150.9))
    stack.ingest_feed("badco", feed=feed("gcpvj0duq3c2", 51.502, 140.9))
    stack.ingest.kill()
    connection = sqlite3.connect(stack.ingest_data / "price-ingest.sqlite", timeout=5)
    try:
        # A price far outside what the store writes: reading badco's stations fails.
        columns = [row[1] for row in connection.execute("PRAGMA table_info(stations)")]
        price_column = next(name for name in columns if name.startswith("price"))
        connection.execute(f"UPDATE stations SET {price_column} = 99999999999 WHERE retailer = 'badco'")
        connection.commit()
    finally:
        connection.close()
    stack.restart_ingest()
    lookup = start_fuel_lookup(stack.ingest_endpoint, stack.pub_endpoint, tmp_path / "fresh-lookup", tmp_path)
    try:
        with Client(zmq_context, lookup.endpoints["listening"], 5_000) as client:
            deadline = time.monotonic() + 20
            while True:
                reply = client.request("lookup.cheapest", {"fuel": "B7", "lat": 51.5, "lng": -0.142, "radiusMiles": 5})
                if reply.get("ok"):
                    break
                assert time.monotonic() < deadline, f"the fresh replica never served: {reply}"
                time.sleep(0.05)
            assert [r["station"]["retailer"] for r in reply["body"]["results"]] == ["goodco"]
            details = client.call("sys.stats")["details"]
            assert "badco" in json.dumps(details), details
    finally:
        lookup.kill()
