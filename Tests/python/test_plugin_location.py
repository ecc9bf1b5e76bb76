"""Where the user is, as a plug-in written in another language sees it: a raw pyzmq DEALER
registers one intent declared "usesLocation": true and one not, against the real intent-router
binary. Only the declared one's requests carry the ask's location; a declaration of the wrong
type is refused with a reason."""

import json
import threading
import uuid

import zmq

from conftest import ServiceProcess
from fbclient import Client
from test_plugin_python import free_endpoint, start_router, wait_until

HERE = {"lat": 53.7838, "lng": -1.0664}


def intent(name, phrase, **extra):
    return {"name": name, "phrases": [phrase], "stages": ["handle"], **extra}


class RawPlugin:
    """A plug-in with no kit: registers, then answers every request with the location it
    carried (as "lat,lng") or "none" as the value, until stopped."""

    def __init__(self, ctx, endpoint, intents):
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)
        self.instance = uuid.uuid4().hex
        self.sock.send_json({"v": 1, "type": "plugin.register", "service": "where", "instance": self.instance,
                             "intents": intents, "heartbeatMs": 200})
        self.first = self.receive(5000)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def receive(self, timeout_ms):
        if not self.sock.poll(timeout_ms):
            raise AssertionError(f"no frame from the router within {timeout_ms} ms")
        return json.loads(self.sock.recv())

    def serve(self):
        while not self.stopping.is_set():
            if not self.sock.poll(50):
                self.sock.send_json({"v": 1, "type": "plugin.heartbeat", "instance": self.instance})
                continue
            message = json.loads(self.sock.recv())
            if message.get("type") != "plugin.request":
                continue
            where = message.get("location")
            value = f"{where['lat']},{where['lng']}" if where else "none"
            self.sock.send_json({"v": 1, "type": "plugin.reply", "id": message["id"], "result": "success",
                                 "dialog": "You asked.", "value": value})

    def close(self):
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        self.sock.close(linger=0)


def test_rawPlugin_getsTheLocationOnlyForTheIntentThatDeclaredIt(tmp_path, zmq_context):
    plugins = free_endpoint()
    router = start_router(tmp_path, plugins)
    client = Client(zmq_context, router.endpoints["listening"], 5000)
    plugin = RawPlugin(zmq_context, plugins, [
        intent("LocateMe", "[ask] {app} [to] locate me", usesLocation=True),
        intent("Quiet", "[ask] {app} [to] keep quiet"),
    ])
    try:
        assert plugin.first["type"] == "plugin.registered", plugin.first
        plugin.thread.start()
        listing = client.call("router.services", {})["services"]
        assert listing[0]["locationIntents"] == ["LocateMe"], listing

        located = client.call("assistant.ask", {"user": "py", "utterance": "Ask FuelBoard to locate me",
                                                "location": HERE})
        assert located["code"] == "success" and located["value"] == "53.7838,-1.0664", located
        quiet = client.call("assistant.ask", {"user": "py", "utterance": "Ask FuelBoard to keep quiet",
                                              "location": HERE})
        assert quiet["code"] == "success" and quiet["value"] == "none", quiet
    finally:
        plugin.close()
        client.close()
        router.kill()


def test_rawPlugin_withUsesLocationNotABoolean_isRefusedSayingSo(tmp_path, zmq_context):
    plugins = free_endpoint()
    router = start_router(tmp_path, plugins)
    plugin = RawPlugin(zmq_context, plugins, [intent("LocateMe", "[ask] {app} [to] locate me", usesLocation="yes")])
    try:
        refused = plugin.first
        assert refused["type"] == "plugin.refused" and refused["code"] == "bad_request", refused
        assert "usesLocation" in refused["reason"], refused
    finally:
        plugin.close()
        router.kill()
