"""Bad input gets error replies, never a crash, and never changes stored data (CONTRACT.md).

One price-ingest + fuel-lookup pair serves the whole module; it holds a small feed of our
own. The last test checks that, after everything below, both services still answer and
the stored data is exactly what it was.
"""

import json
import random
import socket
import time

import pytest
import zmq

from conftest import JSON_TEST_SUITE, SHARED_DATA_ABSENT, memory_mib
from fbclient import Client, NoReply, assert_error

SERVICES = ("price-ingest", "fuel-lookup")
# RELIABILITY.md proposes 64 KiB for request traffic: above that `too_large` is a fair answer,
# and above a socket's ZMQ_MAXMSGSIZE libzmq drops the connection without a reply.
SMALL_REQUEST = 64 * 1024
DROP_WAIT_MS = 3000

OWN_FEED = {
    "last_updated": "09/10/2025 11:00:00",
    "stations": [
        {"site_id": "gcpvj0duq3c1", "brand": "Testco", "address": "1 Test Street, London", "postcode": "SW1A 1AA",
         "location": {"latitude": 51.501, "longitude": -0.142}, "prices": {"B7": 150.9, "E10": 140.9}},
        {"site_id": "gcpvj4abcdef", "brand": "Testco", "address": "2 Test Street, London", "postcode": "SW1A 2AA",
         "location": {"latitude": "51.51", "longitude": "-0.13"}, "prices": {"B7": 148.9, "E10": 999.9}},
    ],
}
LOOKUP = {"fuel": "B7", "lat": 51.5, "lng": -0.14, "radiusMiles": 5, "limit": 5}


def n_files():
    if not JSON_TEST_SUITE.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=SHARED_DATA_ABSENT), id="no-json-test-suite")]
    return [pytest.param(path, id=path.name) for path in sorted(JSON_TEST_SUITE.glob("n_*.json"))]


def y_files():
    if not JSON_TEST_SUITE.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=SHARED_DATA_ABSENT), id="no-json-test-suite")]
    return [pytest.param(path, id=path.name) for path in sorted(JSON_TEST_SUITE.glob("y_*.json"))]


def strict_json(data):
    """Python's parser without its NaN/Infinity extensions; raises ValueError on invalid JSON."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(data, parse_constant=refuse)


class Services:
    def __init__(self, stack):
        self.stack = stack
        self.endpoint = {"price-ingest": stack.ingest_endpoint, "fuel-lookup": stack.lookup_endpoint}
        self.process = {"price-ingest": stack.ingest, "fuel-lookup": stack.lookup}
        self.pid = {}
        self.baseline = None

    def client(self, service, timeout_ms=10_000):
        return self.stack.client(self.endpoint[service], timeout_ms)

    def stored_state(self):
        client = self.stack.ingest_client
        index = client.call("ingest.snapshot", {})
        states = {r["retailer"]: client.call("ingest.snapshot", {"retailer": r["retailer"]})
                  for r in index["retailers"]}
        lookup = self.stack.lookup_client.call("lookup.cheapest", LOOKUP)
        return index, states, lookup

    def assert_up(self, service):
        """The same process still runs and a NEW connection gets an answer."""
        assert self.process[service].alive(), f"{service} died; log tail:\n" + "\n".join(
            self.process[service].lines[-10:])
        with Client(self.stack.ctx, self.endpoint[service], 5_000) as fresh:
            body = fresh.call("sys.ping")
        assert body["service"] == service
        assert body.get("pid", self.pid[service]) == self.pid[service], "the service was restarted"


@pytest.fixture(scope="module")
def services(module_stack):
    services = Services(module_stack)
    module_stack.ingest_feed("testco", feed=OWN_FEED)
    for name in SERVICES:
        services.pid[name] = services.client(name).call("sys.ping").get("pid")
    services.baseline = services.stored_state()
    assert services.baseline[2]["results"], "the lookup baseline must find our own stations"
    return services


@pytest.fixture(scope="module")
def clients(services):
    return {name: services.client(name) for name in SERVICES}


def expect_bad_request_or_size_refusal(services, service, client, payload, id_=None):
    """bad_request; or, for a frame over 64 KiB, too_large or a dropped connection."""
    try:
        reply = client.send_raw(payload, timeout_ms=DROP_WAIT_MS if len(payload) > SMALL_REQUEST else None)
    except NoReply:
        assert len(payload) > SMALL_REQUEST, f"no reply to a {len(payload)}-byte frame"
        services.assert_up(service)
        return None
    if len(payload) > SMALL_REQUEST and reply.get("error", {}).get("code") == "too_large":
        assert_error(reply, "too_large", id_=None)
    else:
        assert_error(reply, "bad_request", id_=id_)
    return reply


# -- JSONTestSuite n_ files -------------------------------------------------------------------

@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("path", n_files())
def test_nFile_asRawRequestFrame_getsBadRequestWithNullId(services, clients, service, path):
    data = path.read_bytes()
    expect_bad_request_or_size_refusal(services, service, clients[service], data, id_=None)


@pytest.mark.parametrize("path", n_files())
def test_nFile_asFeedOfIngestFeed_getsBadRequest(services, clients, path):
    data = path.read_bytes()
    try:
        document = strict_json(data)
    except (ValueError, RecursionError):
        # Not JSON: splice the bytes in raw, which makes the whole request invalid.
        payload = b'{"v":1,"id":"feed-n","type":"ingest.feed","body":{"retailer":"testco","feed":' + data + b"}}"
    else:
        payload = json.dumps({"v": 1, "id": "feed-n", "type": "ingest.feed",
                              "body": {"retailer": "testco", "feed": document}}).encode()
    reply = clients["price-ingest"].send_raw(payload)
    assert_error(reply, "bad_request")
    assert reply.get("id") in (None, "feed-n"), reply


@pytest.mark.parametrize("path", y_files())
def test_yFile_asFeedOfIngestFeed_isValidJsonButNotAFeed_getsBadRequest(clients, path):
    document = strict_json(path.read_bytes())
    reply = clients["price-ingest"].request("ingest.feed", {"retailer": "testco", "feed": document})
    assert_error(reply, "bad_request")


@pytest.mark.skipif(not JSON_TEST_SUITE.is_dir(), reason=SHARED_DATA_ABSENT)
@pytest.mark.parametrize("service", SERVICES)
def test_invalidJsonInsideTheBody_makesTheWholeFrameBadRequest(clients, service):
    """A frame is one JSON object: invalid JSON anywhere in it, even in a part the request type
    ignores, makes it not JSON (CONTRACT.md: bad_request, id null)."""
    accepted = []
    for path in sorted(JSON_TEST_SUITE.glob("n_*.json")):
        data = path.read_bytes()
        if len(data) > 8 * 1024:
            continue
        payload = b'{"v":1,"id":"spliced","type":"sys.ping","body":{"ignored":' + data + b"}}"
        reply = clients[service].send_raw(payload)
        if reply.get("ok") is not False or reply.get("error", {}).get("code") != "bad_request":
            accepted.append((path.name, reply.get("ok"), reply.get("error", {}).get("code")))
    assert not accepted, (f"{service} answered {len(accepted)} frames that are not JSON as if they were "
                          f"(file, ok, code): {accepted[:12]}{' ...' if len(accepted) > 12 else ''}")


# -- garbage frames ------------------------------------------------------------------------

@pytest.mark.parametrize("service", SERVICES)
def test_emptyFrame_getsBadRequestWithNullId(services, clients, service):
    expect_bad_request_or_size_refusal(services, service, clients[service], b"", id_=None)


@pytest.mark.parametrize("service", SERVICES)
def test_randomBinaryFrames_getBadRequestWithNullId(services, clients, service):
    rng = random.Random(f"garbage-{service}")
    sizes = [1, 2, 3, 7, 64, 255, 256, 1024, 4096, 60_000] + [rng.randint(1, 60_000) for _ in range(30)]
    prefixes = [b"\x00", b"*\x00", b"$\x00", b"\xff\xfe", b"\xef\xbb\xbf{", b"{\"v\":1,\"id\":\"x\",\"type\":\""]
    for index, size in enumerate(sizes):
        blob = bytes(rng.getrandbits(8) for _ in range(size))
        if index < len(prefixes):
            blob = prefixes[index] + blob
        expect_bad_request_or_size_refusal(services, service, clients[service], blob, id_=None)


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("frames", [
    [b'{"v":1,"id":"m","type":"sys.ping","body":{}}', b"extra"],
    [b'{"v":1,"id":"m","type":"sys.ping","body":{}}', b"", b'{"v":1,"id":"m2","type":"sys.ping","body":{}}'],
    [b"garbage", b'{"v":1,"id":"m","type":"sys.ping","body":{}}'],
], ids=["request+extra", "request+empty+request", "garbage+request"])
def test_multipartFrame_getsOneErrorReply(services, clients, service, frames):
    client = clients[service]
    client.send_frames(frames)
    reply = client.recv_reply()
    assert_error(reply, "bad_request")
    with pytest.raises(NoReply):
        client.recv_reply(timeout_ms=300)  # exactly one reply, no second answer for the extra frames
    services.assert_up(service)


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("payload,id_", [
    (b"[]", None),
    (b'[{"v":1,"id":"a","type":"sys.ping","body":{}}]', None),
    (b'"sys.ping"', None),
    (b"42", None),
    (b"null", None),
    (b"true", None),
    (b"{}", None),
    (b'{"v":1,"id":"a"}', "a"),
    (b'{"v":1,"id":"a","body":{}}', "a"),
    (b'{"v":1,"id":"a","type":5,"body":{}}', ...),
    (b'{"v":1,"id":"a","type":"","body":{}}', "a"),
    (b'{"v":1,"id":"a","type":null,"body":{}}', "a"),
    (b'{"v":2,"id":"a","type":"sys.ping","body":{}}', "a"),
    (b'{"v":"1","id":"a","type":"sys.ping","body":{}}', ...),
    (b'{"v":1,"id":"a","type":"sys.ping","body":{}} trailing', None),
    (b'{"v":1,"id":"a","type":"sys.ping","body":{}}{"v":1}', None),
    (b'{"v":1,"id":"a","type":"sys.ping","body":{}', None),
    (b'{"v":1,"id":"a","type":"sys.ping","body":NaN}', None),
], ids=lambda value: value.decode()[:40] if isinstance(value, bytes) else None)
def test_malformedEnvelope_getsBadRequest(services, clients, service, payload, id_):
    reply = clients[service].send_raw(payload)
    assert_error(reply, "bad_request", id_=id_)


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("payload,name,id_", [
    (b'{"v":1,"id":"a","type":"sys.ping","type":"sys.stats","body":{}}', "type", "a"),
    (b'{"v":2,"v":1,"id":"a","type":"sys.ping","body":{}}', "v", "a"),
    (b'{"v":1,"id":"a","type":"sys.ping","body":{"x":{"lat":1,"lat":2}}}', "lat", "a"),
    (b'{"v":1,"id":"a","type":"sys.ping","body":{"f\\u0075el":"E10","fuel":"B7"}}', "fuel", "a"),
    (b'{"v":1,"id":"a","type":"sys.ping","id":"b","body":{}}', "id", None),
], ids=["type", "v", "nested", "escaped", "id"])
def test_aNameGivenTwiceInOneObject_getsBadRequestNamingIt(services, clients, service, payload, name, id_):
    """Services read a repeated name differently (one the first, another the last), so a frame
    with one is refused, whatever its type, before it is acted on; with its id unless that is
    what was given twice."""
    reply = clients[service].send_raw(payload)
    assert_error(reply, "bad_request", id_=id_)
    assert f'names "{name}" twice in one object' in reply["error"]["message"], reply


@pytest.mark.parametrize("service", SERVICES)
def test_unknownType_getsUnknownTypeWithIdEchoed(clients, service):
    reply = clients[service].request("no.such.type", {}, request_id="unknown-1")
    assert_error(reply, "unknown_type", id_="unknown-1")


@pytest.mark.parametrize("service", SERVICES)
def test_deeplyNestedButValidBody_getsAReplyAndTheServiceStaysUp(services, clients, service):
    depth = 100_000 if service == "price-ingest" else 30_000
    payload = (b'{"v":1,"id":"deep","type":"sys.ping","body":{"nested":' + b"[" * depth + b"]" * depth + b"}}")
    reply = clients[service].send_raw(payload)
    assert reply.get("v") == 1 and reply.get("ok") in (True, False), reply
    if reply.get("ok") is False:
        assert reply["error"]["code"] in ("bad_request", "too_large"), reply
    services.assert_up(service)


@pytest.mark.time_limit(60)
@pytest.mark.parametrize("service", SERVICES)
def test_hugeFrameOver64MiB_getsTooLargeOrIsDropped_andTheServiceStaysUp(services, service):
    client = services.client(service, timeout_ms=15_000)
    payload = b'{"v":1,"id":"huge","type":"sys.ping","body":{"pad":"' + b"x" * (65 * 1024 * 1024) + b'"}}'
    client.send_frames([payload])
    try:
        reply = client.recv_reply(timeout_ms=5_000)
    except NoReply:
        reply = None  # over the socket's max message size: libzmq drops the connection
    if reply is not None:
        assert_error(reply, "too_large", "bad_request")
    client.close()
    services.assert_up(service)


@pytest.mark.parametrize("service", SERVICES)
def test_rawTcpGarbageOnTheEndpoint_leavesTheServiceUp(services, service):
    """Non-ZMTP bytes on the TCP port (RELIABILITY.md goal 4): the peer is dropped, nothing else."""
    host, port = services.endpoint[service].removeprefix("tcp://").rsplit(":", 1)
    rng = random.Random(f"tcp-{service}")
    blobs = [b"\x00", b"*\x00" + b"A" * 1024, b"$\x00" + b"B" * 1024, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
             b"\xff" + b"\x00" * 8 + b"\x7f" + bytes(rng.getrandbits(8) for _ in range(4096))]
    for blob in blobs:
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(blob)
            raw.settimeout(0.5)
            try:
                raw.recv(4096)
            except (socket.timeout, ConnectionError):
                pass
    services.assert_up(service)


@pytest.mark.time_limit(120)
def test_batchesOfLargeLookups_neverRead_doNotGrowFuelLookupPastItsBound(services):
    """A client sending sys.batch frames of 400 lookups of 50 stations and never reading: each 64 KB
    request makes a reply hundreds of times larger, held by libzmq for the client (counted in
    messages, 10,000 of them). It took fuel-lookup to 6 GB in 20 s (QA). Past 64 MiB unread, large
    replies are answered with a short `unavailable` instead."""
    lookup = dict(LOOKUP, limit=50)
    frame = json.dumps({"v": 1, "id": "big", "type": "sys.batch", "body": {"requests": [
        {"v": 1, "id": f"l{i}", "type": "lookup.cheapest", "body": lookup} for i in range(400)]}}).encode()
    assert len(frame) <= SMALL_REQUEST
    pid = services.process["fuel-lookup"].pid
    stats_client = services.client("fuel-lookup")
    before_batches = stats_client.call("sys.stats")["requestsByType"].get("sys.batch", 0)
    before_rss = memory_mib(pid)
    silent = services.stack.ctx.socket(zmq.DEALER)
    silent.setsockopt(zmq.LINGER, 0)
    silent.setsockopt(zmq.RCVHWM, 1)
    silent.setsockopt(zmq.RCVBUF, 4096)
    silent.setsockopt(zmq.SNDHWM, 100_000)
    silent.connect(services.endpoint["fuel-lookup"])
    try:
        sent = 1500
        for _ in range(sent):
            silent.send_multipart([b"", frame])
        deadline = time.monotonic() + 90
        while True:
            stats = stats_client.call("sys.stats")
            if stats["requestsByType"].get("sys.batch", 0) - before_batches >= sent:
                break
            assert time.monotonic() < deadline, "fuel-lookup did not take every batch"
        grown = memory_mib(pid) - before_rss
        assert stats["details"]["largeRepliesRefused"] > 0, stats["details"]
        assert stats["details"]["unreadReplyBytes"] <= 72 * 1024 * 1024, stats["details"]
        assert grown < 160, f"fuel-lookup grew {grown:.0f} MiB holding replies a client never read"
        # What the silent client then reads: whole replies, and refusals that say why.
        silent.setsockopt(zmq.RCVTIMEO, 10_000)
        codes = set()
        for _ in range(sent):
            reply = json.loads(silent.recv_multipart()[-1])
            assert reply["id"] == "big"
            if reply["ok"]:
                assert len(reply["body"]["replies"]) == 400
            else:
                assert reply["error"]["code"] == "unavailable", reply
                assert "has not read" in reply["error"]["message"], reply
            codes.add(reply["ok"])
        assert codes == {True, False}, codes
    finally:
        silent.close(linger=0)
    services.assert_up("fuel-lookup")


# -- wrong types and absurd values in bodies -------------------------------------------------

FEED_BODIES = {
    "body-array": [],
    "retailer-number": {"retailer": 5, "feed": OWN_FEED},
    "no-feed-no-url": {"retailer": "testco"},
    "feed-and-url": {"retailer": "testco", "feed": OWN_FEED, "url": "file:///dev/null"},
    "feed-string": {"retailer": "testco", "feed": "stations"},
    "feed-array": {"retailer": "testco", "feed": [OWN_FEED]},
    "feed-null": {"retailer": "testco", "feed": None},
    "feed-no-stations": {"retailer": "testco", "feed": {"last_updated": "09/10/2025 11:00:00"}},
    "stations-string": {"retailer": "testco", "feed": {"stations": "none"}},
    "stations-object": {"retailer": "testco", "feed": {"stations": {"0": OWN_FEED["stations"][0]}}},
    "retailer-empty": {"retailer": "", "feed": OWN_FEED},
    "retailer-too-long": {"retailer": "x" * 10_000, "feed": OWN_FEED},
    "url-number": {"retailer": "testco", "url": 5},
}


@pytest.mark.parametrize("body", FEED_BODIES.values(), ids=FEED_BODIES.keys())
def test_ingestFeed_withWrongTypes_getsBadRequest(clients, body):
    assert_error(clients["price-ingest"].request("ingest.feed", body), "bad_request")


@pytest.mark.parametrize("url", ["not a url", "ftp://127.0.0.1/feed.json"])
def test_ingestFeed_withAMalformedOrUnsupportedUrl_getsBadRequest(clients, url):
    """CONTRACT.md: bad_request = wrong shape or out-of-range value; unavailable = a dependency is down."""
    assert_error(clients["price-ingest"].request("ingest.feed", {"retailer": "testco", "url": url}), "bad_request")


def test_ingestFeed_withAMissingFile_getsAnErrorReply(clients):
    reply = clients["price-ingest"].request("ingest.feed", {"retailer": "testco",
                                                            "url": "file:///nonexistent/fuelboard/feed.json"})
    assert_error(reply, "not_found", "unavailable", "bad_request")
    # One readable line, not Foundation's dump of its error domain.
    assert reply["error"]["message"].endswith("/nonexistent/fuelboard/feed.json: No such file or directory"), reply


@pytest.mark.parametrize("body", [{"retailer": 5}, [], "asda"], ids=["retailer-number", "array", "string"])
def test_ingestSnapshot_withWrongTypes_getsBadRequest(clients, body):
    assert_error(clients["price-ingest"].request("ingest.snapshot", body), "bad_request")


@pytest.mark.parametrize("body", [[], "all", 5], ids=["array", "string", "number"])
def test_ingestStatus_withABodyThatIsNoObject_getsBadRequest(clients, body):
    """Its body takes no members, but is an object all the same (an array was answered as `{}`)."""
    reply = clients["price-ingest"].request("ingest.status", body)
    assert_error(reply, "bad_request")
    assert "expected an object" in reply["error"]["message"], reply


@pytest.mark.parametrize("body,code", [({}, "bad_request"), ({"retailer": 5}, "bad_request"), ([], "bad_request"),
                                       ({"retailer": ""}, "bad_request"),
                                       ({"retailer": "nobody-stored-this"}, "not_found")],
                         ids=["no-retailer", "retailer-number", "array", "retailer-empty", "unknown"])
def test_ingestRemove_withoutAStoredRetailer_getsAnErrorAndChangesNothing(clients, body, code):
    before = clients["price-ingest"].request("ingest.snapshot", {})["body"]
    assert_error(clients["price-ingest"].request("ingest.remove", body), code)
    after = clients["price-ingest"].request("ingest.snapshot", {})["body"]
    assert after["version"] == before["version"] and after["retailers"] == before["retailers"]


LOOKUP_CHANGES = {
    "fuel-number": {"fuel": 7},
    "fuel-null": {"fuel": None},
    "fuel-unknown": {"fuel": "LPG"},
    "lat-string": {"lat": "51.5"},
    "lng-null": {"lng": None},
    "radius-string": {"radiusMiles": "5"},
    "limit-string": {"limit": "1"},
    "limit-fraction": {"limit": 1.5},
    "lat-1e308": {"lat": 1e308},
    "lng-1e308": {"lng": -1e308},
    "lat-91": {"lat": 91},
    "lng-181": {"lng": 181},
    "radius-negative": {"radiusMiles": -1},
    "radius-zero": {"radiusMiles": 0},
    "radius-1e308": {"radiusMiles": 1e308},
    "limit-1e9": {"limit": 10 ** 9},
    "limit-zero": {"limit": 0},
    "limit-negative": {"limit": -1},
    "lat-NaN-string": {"lat": "NaN"},
    "lng-Infinity-string": {"lng": "Infinity"},
    "maxAge-negative": {"maxAgeHours": -1},
    "preferFresh-string": {"preferFresh": "yes"},
    "brand-number": {"brand": 5},
    "retailer-number": {"retailer": 5},
}


LOOKUP_CASES = [
    pytest.param(type_, change, id=f"{name}-{type_}")
    for name, change in LOOKUP_CHANGES.items()
    for type_ in ("lookup.cheapest", "lookup.nearest")
    if not (type_ == "lookup.nearest" and name == "fuel-null")  # nearest may read a null fuel as "any fuel"
]


@pytest.mark.parametrize("type_,change", LOOKUP_CASES)
def test_lookup_withWrongTypesOrAbsurdValues_getsBadRequest(clients, type_, change):
    body = {**LOOKUP, **change}
    assert_error(clients["fuel-lookup"].request(type_, body, request_id="absurd"), "bad_request", id_="absurd")


@pytest.mark.parametrize("missing", ["fuel", "lat", "lng"])
def test_lookup_withAFieldMissing_getsBadRequest(clients, missing):
    body = {k: v for k, v in LOOKUP.items() if k != missing}
    assert_error(clients["fuel-lookup"].request("lookup.cheapest", body), "bad_request")


@pytest.mark.parametrize("raw_value", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"18446744073709551616"])
def test_lookup_withNonJsonOrOverflowingNumbers_getsBadRequest(clients, raw_value):
    payload = (b'{"v":1,"id":"num","type":"lookup.cheapest","body":{"fuel":"B7","lat":51.5,"lng":-0.14,'
               b'"radiusMiles":5,"limit":' + raw_value + b"}}")
    reply = clients["fuel-lookup"].send_raw(payload)
    assert_error(reply, "bad_request")


@pytest.mark.parametrize("body,code", [({"id": 5}, "bad_request"), ({}, "bad_request"),
                                       ({"id": "nope/nope"}, "not_found"), ([], "bad_request")],
                         ids=["id-number", "no-id", "unknown-id", "array"])
def test_stationGet_withBadBodies_getsAnErrorReply(clients, body, code):
    assert_error(clients["fuel-lookup"].request("station.get", body), code)


# -- afterwards -----------------------------------------------------------------------------

def test_afterAllBadInput_servicesStillAnswerAndStoredDataIsUnchanged(services):
    for service in SERVICES:
        services.assert_up(service)
    index, states, lookup = services.stored_state()
    base_index, base_states, base_lookup = services.baseline
    assert index == base_index, "ingest.snapshot versions changed after bad input"
    assert states == base_states, "stored stations changed after bad input"
    assert lookup["results"] == base_lookup["results"]
    assert lookup.get("version") == base_lookup.get("version")
