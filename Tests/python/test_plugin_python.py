"""The Python example intent service (examples/python-intent/service.py) against the real
intent-router binary: registration, needsValue across two turns, expiry after kill -9 and
SIGSTOP, a goodbye on SIGTERM, re-registration after a router restart, and a clear exit when pointed
at the router's ask endpoint instead of its plug-in endpoint."""

import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from conftest import REPO_ROOT, ServiceProcess, _LIVE_PROCESSES, _clean_env
from fbclient import Client, assert_error

SERVICE = REPO_ROOT / "examples" / "python-intent" / "service.py"
_PLUGINS_LINE = re.compile(r"\bplugins open\b.*\bsvc\.plugins=(\S+)")


def free_endpoint():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{sock.getsockname()[1]}"


def start_router(log_dir, plugins):
    down = free_endpoint()
    proc = ServiceProcess("intent-router", ["--bind", "tcp://127.0.0.1:*", "--plugins", plugins, "--location", down,
                                            "--lookup", down, "--dialog", down], pathlib.Path(log_dir) / "router.log")
    proc.wait_for_endpoints("listening")
    proc.wait_for(lambda lines: any(_PLUGINS_LINE.search(line) for line in lines), 10, "plugins line")
    return proc


def start_service(plugins, log_dir):
    log = open(pathlib.Path(log_dir) / "fuel-facts.log", "a")
    proc = subprocess.Popen([sys.executable, str(SERVICE), "--plugins", plugins, "--heartbeat-ms", "200"],
                            stdout=log, stderr=subprocess.STDOUT, env=_clean_env())
    _LIVE_PROCESSES.add(proc)
    return proc


def wait_until(predicate, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)  # polling a condition with a deadline, not synchronising by sleep
    raise AssertionError(f"no {what} within {timeout} s")


def instances(client):
    services = client.call("router.services", {})["services"]
    return [i for s in services if s["service"] == "fuel-facts" for i in s["instances"]]


@pytest.fixture
def world(tmp_path, zmq_context):
    plugins = free_endpoint()
    router = start_router(tmp_path, plugins)
    client = Client(zmq_context, router.endpoints["listening"], 5000)
    service = start_service(plugins, tmp_path)
    state = {"router": router, "client": client, "service": service, "plugins": plugins, "root": tmp_path}
    yield state
    state["client"].close()
    if service.poll() is None:
        service.send_signal(signal.SIGCONT)
        service.kill()
    service.wait(timeout=5)
    state["router"].kill()


def ask(client, utterance, session=None):
    body = {"user": "py", "utterance": utterance}
    if session:
        body["session"] = session
    return client.call("assistant.ask", body)


def test_pythonService_registersAndAnswersAcrossTwoTurns(world):
    client = world["client"]
    wait_until(lambda: instances(client), what="registration")
    reply = ask(client, "Ask FuelBoard to tell me about diesel")
    assert reply["code"] == "success" and reply["dialog"].startswith("Diesel (B7)"), reply
    assert reply["service"] == "fuel-facts" and reply["intent"] == "FuelFact"
    question = ask(client, "Ask FuelBoard for a fuel fact")
    assert question["code"] == "needsValue" and question["needs"] == "fuel", question
    answer = ask(client, "super unleaded", session=question["session"])
    assert answer["code"] == "success" and answer["value"] == "E5", answer


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGSTOP])
def test_pythonService_whenKilledOrStopped_isExpiredAndAsksFailAtOnce(world, how):
    client = world["client"]
    wait_until(lambda: instances(client), what="registration")
    world["service"].send_signal(how)
    wait_until(lambda: not instances(client), what="expiry")
    started = time.monotonic()
    reply = ask(client, "Ask FuelBoard to tell me about diesel")
    assert time.monotonic() - started < 0.5
    assert reply["code"] == "failure" and "isn't running" in reply["dialog"], reply
    world["router"].wait_for(lambda lines: any('why="no instance running"' in line for line in lines), 5,
                             "the failure's reason in the router's log")
    if how == signal.SIGSTOP:
        world["service"].send_signal(signal.SIGCONT)
        wait_until(lambda: instances(client), what="registration after SIGCONT")
        assert ask(client, "Ask FuelBoard to tell me about diesel")["code"] == "success"


def test_pythonService_afterRouterRestart_registersAgain(world, zmq_context):
    client = world["client"]
    wait_until(lambda: instances(client), what="registration")
    world["router"].kill()
    world["client"].close()
    world["router"] = start_router(world["root"], world["plugins"])
    world["client"] = client = Client(zmq_context, world["router"].endpoints["listening"], 5000)
    wait_until(lambda: instances(client), what="registration with the new router")
    assert ask(client, "Ask FuelBoard to tell me about petrol")["value"] == "E10"


def test_pythonService_onSIGTERM_saysGoodbyeAndIsDroppedAtOnce(world):
    client = world["client"]
    wait_until(lambda: instances(client), what="registration")
    world["service"].send_signal(signal.SIGTERM)
    assert world["service"].wait(timeout=5) == 0
    # A goodbye drops the instance at once; without it the router waits 3 heartbeats (600 ms here).
    started = time.monotonic()
    wait_until(lambda: not instances(client), timeout=5, what="the instance dropped")
    assert time.monotonic() - started < 0.3
    world["router"].wait_for(lambda lines: any("plugin left" in line for line in lines), 5, "the goodbye logged")


def test_routerForget_refusesARunningService_andBadBodies_thenForgetsTheStoppedOne(world):
    client = world["client"]
    wait_until(lambda: instances(client), what="registration")
    assert_error(client.request("router.forget", {"service": "fuel-facts"}), "conflict")
    for body in ([], 5, {"service": 5}, {"name": "fuel-facts"}, {"service": None}):
        assert_error(client.request("router.forget", body), "bad_request")
    assert_error(client.request("router.forget", {"service": "nobody"}), "not_found")
    world["service"].send_signal(signal.SIGTERM)
    assert world["service"].wait(timeout=5) == 0
    wait_until(lambda: not instances(client), timeout=5, what="the instance dropped")
    listed = client.call("router.services", {})["services"]
    assert listed[0]["service"] == "fuel-facts" and listed[0]["stoppedMs"] >= 0, listed
    assert client.call("router.forget", {"service": "fuel-facts"}) == {"service": "fuel-facts",
                                                                        "intents": ["FuelFact"]}
    assert client.call("router.services", {})["services"] == []
    world["router"].wait_for(lambda lines: any("plugin service forgotten" in line and 'why=asked' in line
                                               for line in lines), 5, "the forgetting logged")


def test_pythonService_pointedAtTheAskEndpoint_exitsWithAHint(world):
    proc = subprocess.run([sys.executable, str(SERVICE), "--plugins", world["router"].endpoints["listening"]],
                          capture_output=True, text=True, timeout=30, env=_clean_env())
    assert proc.returncode != 0
    assert "plug-in endpoint (--plugins" in proc.stderr + proc.stdout, proc
