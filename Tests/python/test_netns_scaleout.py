"""Scale-out across separate network hosts (issue 6): deploy/netns/run puts price-ingest, two
fuel-lookup replicas, two intent-routers and location-cache + dialog-renderer in their own Linux
network namespaces joined by a bridge, loads both routers with asks (retried on the other router
when one does not answer) and plays a fault schedule: a replica killed with SIGKILL and started
again, a router host's link cut and restored, price updates while that happens.

Needs root and iproute2 (`ip netns`); skips otherwise. Every port lives inside the lab's private
namespaces; nothing binds in the namespace the test runs in.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import BIN_DIR, REPO_ROOT, binary

RUN = REPO_ROOT / "deploy" / "netns" / "run"
BINARIES = ("price-ingest", "fuel-lookup", "location-cache", "dialog-renderer", "intent-router", "fuelboard")
FAULTS = "2:kill:lookup1,3:update:any,4:cut:router1,6:start:lookup1,7:restore:router1"
RUN_TIMEOUT = 100

needs_root_and_netns = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None,
    reason="needs root and iproute2's `ip` to create network namespaces (run as root with iproute2 installed)",
)


def _run_lab(tmp_path):
    for name in BINARIES:
        binary(name)
    # --strict: every answer must be a success, not merely a reply (a replica killed or still
    # loading is retried on the other one by the router).
    command = [sys.executable, str(RUN), "--bin-dir", str(BIN_DIR), "--json", "--strict", "--duration", "9",
               "--faults", FAULTS, "--log-dir", str(tmp_path / "lab")]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                                env={k: v for k, v in os.environ.items() if not k.startswith("FUELBOARD_")})
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"deploy/netns/run did not finish within {RUN_TIMEOUT} s; stderr:\n{error.stderr}")
    if result.returncode == 2:
        pytest.skip(f"deploy/netns/run cannot run here: {result.stderr.strip().splitlines()[-1]}")
    return result


@needs_root_and_netns
@pytest.mark.time_limit(RUN_TIMEOUT + 20)
def test_scaleout_acrossNamespaces_withKilledReplicaAndCutRouterLink_everyAskAnswered(tmp_path):
    result = _run_lab(tmp_path)
    context = f"exit {result.returncode}; stderr:\n{result.stderr[-3000:]}\nlogs: {tmp_path / 'lab' / 'logs'}"
    try:
        summary = json.loads(result.stdout)
    except ValueError:
        pytest.fail(f"no JSON summary on stdout ({result.stdout[:500]!r}); {context}")
    (tmp_path / "lab" / "summary.json").write_text(result.stdout)
    context = f"failures {summary['failures']}; {context}"
    load = summary["load"]

    assert result.returncode == 0 and summary["pass"], context
    assert load["asksSent"] > 100, f"too few asks to mean anything: {load['asksSent']}; {context}"
    assert load["unanswered"] == 0, f"unanswered asks {load['unansweredAsks']}; {context}"
    assert load["badReplies"] == 0, f"bad replies {load['badReplyExamples']}; {context}"
    assert load["answered"] == load["asksSent"], context
    assert load["answeredOkByCode"].get("success", 0) > 0, context

    applied = [entry["fault"] for entry in summary["faults"] if entry["ok"]]
    assert applied == FAULTS.split(","), f"faults applied: {summary['faults']}; {context}"

    for name, replica in summary["replicas"].items():
        assert replica["lookupsBeforeFirstFault"] > 0, f"{name} served nothing before the kill; {context}"
    assert summary["replicas"]["lookup1"]["lookupsServed"]["byLife"].get("2", 0) > 0, \
        f"the restarted replica served nothing; {context}"

    for name, router in summary["routers"].items():
        assert router["answeredForClients"] > 0, f"{name} answered no ask; {context}"
        assert router["asksServed"]["total"] > 0, f"{name}'s sys.stats counted no ask; {context}"

    versions = summary["versions"]
    assert summary["sameVersion"], f"replicas on different versions: {versions}; {context}"
    assert versions["lookup1"] == versions["lookup2"] == versions["ingest"], context
    assert versions["ingest"] > summary["setup"]["ingestVersion"], \
        f"the update during the load did not bump the version: {versions}; {context}"
