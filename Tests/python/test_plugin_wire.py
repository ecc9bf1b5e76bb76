"""The plug-in protocol as a service written from the guide sees it: raw pyzmq DEALERs against the
real intent-router binary, checking the frames the router sends back. Covers the "v" check, replies
refused with their request id (unreadable or unusable), replicas that must declare the same
intents, option values that are numbers, and "confirmed" after the user says yes."""

import json
import threading
import time
import uuid

import pytest
import zmq

from conftest import memory_mib
from fbclient import Client
from test_plugin_python import free_endpoint, start_router

HERE = {"lat": 53.7838, "lng": -1.0664}


def intent(name, phrase, **extra):
    return {"name": name, "phrases": [phrase], "stages": ["handle"], **extra}


class Peer:
    """A plug-in with no kit: sends `register` (as given, so its "v" can be wrong), then answers
    each request with `answer(request)` (a dict of reply fields, or a whole frame as bytes) and
    heartbeats, keeping every other frame the router sends."""

    def __init__(self, ctx, endpoint, register, answer=None):
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)
        self.answer = answer or (lambda request: {"result": "success", "dialog": "ok"})
        self.frames, self.requests = [], []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.sock.send(json.dumps(register).encode() if isinstance(register, dict) else register)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        last_beat = time.monotonic()
        while not self.stopping.is_set():
            if time.monotonic() - last_beat > 0.2:
                self.sock.send_json({"v": 1, "type": "plugin.heartbeat"})
                last_beat = time.monotonic()
            if not self.sock.poll(20):
                continue
            message = json.loads(self.sock.recv())
            with self.lock:
                self.frames.append(message)
            if message.get("type") == "plugin.request":
                self.requests.append(message)
                reply = self.answer(message)
                if isinstance(reply, bytes):
                    self.sock.send(reply)
                else:
                    self.sock.send_json({"v": 1, "type": "plugin.reply", "id": message["id"], **reply})

    def first(self, kind, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [frame for frame in self.frames if frame.get("type") == kind]
            if found:
                return found[0]
            time.sleep(0.02)  # polling a condition with a deadline, not synchronising by sleep
        raise AssertionError(f"no {kind} within {timeout} s")

    def close(self):
        self.stopping.set()
        self.thread.join(timeout=5)
        self.sock.close(linger=0)


@pytest.fixture
def world(tmp_path, zmq_context):
    plugins = free_endpoint()
    router = start_router(tmp_path, plugins)
    client = Client(zmq_context, router.endpoints["listening"], 5000)
    peers = []

    def peer(register, answer=None):
        peers.append(Peer(zmq_context, plugins, register, answer))
        return peers[-1]

    yield {"client": client, "peer": peer, "router": router, "plugins": plugins}
    for each in peers:
        each.close()
    client.close()
    router.kill()


def register(service="jokes", intents=None, v=1):
    return {"v": v, "type": "plugin.register", "service": service, "instance": uuid.uuid4().hex,
            "intents": intents or [intent("Jokes", "[ask] {app} [to] tell me a joke")], "heartbeatMs": 1000}


def ask(client, utterance, **extra):
    return client.call("assistant.ask", {"user": "py", "utterance": utterance, **extra})


@pytest.mark.parametrize("version", ["1", True, 2])
def test_aRegisterWhoseVIsNotTheNumber1_isRefusedSayingSo(world, version):
    refused = world["peer"](register(v=version)).first("plugin.refused")
    assert refused["code"] == "bad_request" and '"v" must be 1' in refused["reason"], refused


def unusable_reply_refused(world, reply_frame):
    """Registers a joke service whose every reply is `reply_frame(request)` (bytes), asks for a
    joke, checks the ask failed at once as an unusable answer, and returns the refusal sent back."""
    peer = world["peer"](register(), reply_frame)
    peer.first("plugin.registered")
    started = time.monotonic()
    reply = ask(world["client"], "Ask FuelBoard to tell me a joke")
    assert time.monotonic() - started < 1.5
    assert reply["dialog"] == "Sorry, the jokes service gave an answer I can't use.", reply
    refused = peer.first("plugin.refused")
    assert refused["code"] == "bad_request" and refused["id"] == peer.requests[0]["id"], refused
    return refused


def test_aReplyWithAStringV_failsTheAskAtOnce_andIsRefusedWithItsId(world):
    unusable_reply_refused(world, lambda request: json.dumps(
        {"v": "1", "type": "plugin.reply", "id": request["id"], "result": "success", "dialog": "Ha."}).encode())


def test_aRegisterNamingAMemberTwice_isRefusedNamingIt(world):
    frame = json.dumps(register(service="jokes"))[:-1] + ', "service": "pranks"}'
    refused = world["peer"](frame.encode()).first("plugin.refused")
    assert refused["code"] == "bad_request" and 'names "service" twice in one object' in refused["reason"], refused


def test_aReplyNamingAMemberTwice_failsTheAskAtOnce_andIsRefusedWithItsId(world):
    refused = unusable_reply_refused(world, lambda request: (
        '{"v": 1, "type": "plugin.reply", "id": "%s", "result": "success", "dialog": "Ha.", "dialog": "Ho."}'
        % request["id"]).encode())
    assert 'names "dialog" twice' in refused["reason"], refused


def test_anIntentsHelp_isSaidInTheHelpAnswer_andOneTooLongIsRefused(world):
    before = ask(world["client"], "Ask FuelBoard for help")["dialog"]
    joke = intent("Jokes", "[ask] {app} [to] tell me a joke", help="You can also ask me to tell you a joke.")
    world["peer"](register("jokes", [joke])).first("plugin.registered")
    after = ask(world["client"], "Ask FuelBoard for help")["dialog"]
    assert after == before + " You can also ask me to tell you a joke.", after
    long = intent("Riddles", "[ask] {app} [to] tell me a riddle", help="x" * 201)
    refused = world["peer"](register("riddles", [long])).first("plugin.refused")
    assert refused["code"] == "bad_request" and "help is longer than 200 characters" in refused["reason"], refused


def test_aFloodOfBigRegistrations_doesNotHoldAsksBack_andAQuietServiceStillRegisters(world, zmq_context):
    """Each big registration takes the router's loop tens of milliseconds; a peer sending them in a
    loop (refused for a conflict here) held every ask back for minutes in a QA pass. Now they take a
    tenth of the loop at most, one waiting per peer."""
    values = [{"value": f"v{n}", "synonyms": [f"v{n} s{k}" for k in range(9)]} for n in range(10)]
    intents = [{"name": f"Big{n}", "parameters": [{"name": "p", "type": "enum", "values": values}],
                "phrases": ["[ask] {app} for the cheapest diesel near me" if n == 0 else f"[ask] {{app}} big{n} {{p}}"]}
               for n in range(20)]
    frame = json.dumps(register("flood", intents)).encode()
    flood = zmq_context.socket(zmq.DEALER)
    flood.setsockopt(zmq.LINGER, 0)
    flood.connect(world["plugins"])
    try:
        for _ in range(300):
            flood.send(frame)
        started = time.monotonic()
        reply = ask(world["client"], "Ask FuelBoard for help")
        assert reply["outcome"] == "help", reply
        # Without the queue: 300 registrations one after another before it (30 s in a debug build).
        assert time.monotonic() - started < 3.0, time.monotonic() - started
        quiet = world["peer"](register("quiet", [intent("Quiet", "[ask] {app} [to] be quiet")]))
        quiet.first("plugin.registered", timeout=10)
    finally:
        flood.close(linger=0)


def test_aFloodOfLargeFramesFromManyConnections_isCutToABoundedStream_andAsksGoOn(world, zmq_context):
    """Each connection within its own frame rate once brought the router's loop 1 GB a second of
    200 KB frames (from peers it did not even know): every ask timed out and its memory went to
    2.3 GB (hostile QA). Large frames now cost by size, per peer and for all peers together."""
    frame = json.dumps({"v": 1, "type": "plugin.reply", "id": "z", "result": "success",
                        "dialog": "D" * 200_000}).encode()
    floods = []
    for _ in range(4):
        sock = zmq_context.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, 100)
        sock.connect(world["plugins"])
        floods.append(sock)
    stop = threading.Event()

    def flood(sock):
        while not stop.is_set():
            try:
                sock.send(frame, zmq.NOBLOCK)
            except zmq.Again:
                sock.poll(10, zmq.POLLOUT)

    threads = [threading.Thread(target=flood, args=(sock,), daemon=True) for sock in floods]
    pid = world["router"].pid
    before = memory_mib(pid)
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 4
        slowest = 0.0
        while time.monotonic() < deadline:
            started = time.monotonic()
            reply = ask(world["client"], "Ask FuelBoard for help")
            assert reply["outcome"] == "help", reply
            slowest = max(slowest, time.monotonic() - started)
        grown = memory_mib(pid) - before
        stats = world["client"].call("sys.stats")
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)
        for sock in floods:
            sock.close(linger=0)
    assert slowest < 2.0, f"an ask took {slowest:.2f} s during the flood"
    assert grown < 400, f"the router grew by {grown:.0f} MiB during the flood"
    assert stats["details"]["plugins"]["droppedByRateLimit"] > 0, stats["details"]["plugins"]


def test_anUnusableAnswer_isRefusedWithItsIdAndTheFault(world):
    peer = world["peer"](register(), lambda request: {"result": "success", "dialog": "Here.",
                                                      "opensURL": "javascript:alert(1)"})
    peer.first("plugin.registered")
    assert ask(world["client"], "Ask FuelBoard to tell me a joke")["code"] == "failure"
    refused = peer.first("plugin.refused")
    assert refused["id"] == peer.requests[0]["id"] and "opensURL" in refused["reason"], refused


def test_aReplicaNotDeclaringUsesLocation_isRefused_andNeverGetsTheLocation(world):
    declared = intent("LocateMe", "[ask] {app} [to] locate me", usesLocation=True)
    first = world["peer"](register("where", [declared]), lambda r: {"result": "success", "dialog": "a",
                                                                     "value": str(r.get("location"))})
    first.first("plugin.registered")
    second = world["peer"](register("where", [intent("LocateMe", "[ask] {app} [to] locate me")]))
    refused = second.first("plugin.refused")
    assert refused["code"] == "conflict" and "usesLocation" in refused["reason"], refused
    assert "LocateMe" in refused["reason"] and "stop the running replicas" in refused["reason"], refused
    for _ in range(2):
        assert ask(world["client"], "Ask FuelBoard to locate me", location=HERE)["dialog"] == "a"
    assert second.requests == []


def test_optionValuesThatAreNumbers_areOffered_andThePickIsANumber(world):
    radius = {"name": "PickRadius", "parameters": [{"name": "radius", "type": "number"}],
              "phrases": ["[ask] {app} [to] pick a radius"], "stages": ["resolve", "handle"]}

    def answer(request):
        if request["stage"] == "resolve" and "radius" not in request["parameters"]:
            return {"result": "disambiguation", "parameter": "radius", "dialog": "5 or 10 miles?",
                    "options": [{"value": 5, "title": "Five miles"}, {"value": 10, "title": "Ten miles"}]}
        return {"result": "success", "dialog": json.dumps(request["parameters"].get("radius"))}

    world["peer"](register("radii", [radius]), answer).first("plugin.registered")
    question = ask(world["client"], "Ask FuelBoard to pick a radius")
    assert question["code"] == "disambiguation", question
    assert ask(world["client"], "2", session=question["session"])["dialog"] in ("10", "10.0")


def test_aHandleAskingForConfirmation_getsConfirmedAfterYes(world):
    def answer(request):
        if request.get("confirmed") is True:
            return {"result": "success", "dialog": "Deleted."}
        return {"result": "confirmationRequired", "dialog": "Delete your car?"}

    peer = world["peer"](register("cars", [intent("DeleteCar", "[ask] {app} [to] delete my car")]), answer)
    peer.first("plugin.registered")
    question = ask(world["client"], "Ask FuelBoard to delete my car")
    assert question["code"] == "confirmationRequired", question
    assert ask(world["client"], "yes", session=question["session"])["dialog"] == "Deleted."
    assert "confirmed" not in peer.requests[0] and peer.requests[1]["confirmed"] is True


def test_anInstanceIdRegisteredFromAnotherConnection_takesOverAndIsLogged(world):
    """Two processes given the same instance id (a copied config) replace each other: the
    router's log says so, naming the service and instance, where it used to be silent."""
    declared = register()
    first = world["peer"](declared, lambda request: {"result": "success", "dialog": "first"})
    first.first("plugin.registered")
    second = world["peer"](declared, lambda request: {"result": "success", "dialog": "second"})
    second.first("plugin.registered")
    world["router"].wait_for(
        lambda lines: any("plugin re-registered from a new connection" in line and f'instance={declared["instance"]}' in line
                          and "service=jokes" in line for line in lines), 5, "the takeover logged")
    assert ask(world["client"], "Ask FuelBoard to tell me a joke")["dialog"] == "second"


@pytest.mark.parametrize("answer, spoken", [
    ({"result": "success", "value": "£1.45"}, "£1.45"),
    ({"result": "success", "dialog": "", "value": "£1.45"}, "£1.45"),
    ({"result": "success", "dialog": "  "}, "Done."),
    ({"result": "success"}, "Done."),
])
def test_aSuccessWithoutWords_saysItsValue_elseDone(world, answer, spoken):
    """A handle answering with a value and no dialog was spoken "Done." (or nothing, for an empty
    dialog): the user heard that something happened, not the answer."""
    world["peer"](register(), lambda request: answer).first("plugin.registered")
    reply = ask(world["client"], "Ask FuelBoard to tell me a joke")
    assert reply["code"] == "success" and reply["dialog"] == spoken, reply
