"""Our wire protocol from Python (pyzmq): a blocking client, the located stations of price-ingest's
snapshot, and a small stand-in for price-ingest's `ingest.snapshot` that serves a sample of them."""

import json
import random
import statistics
import threading

import zmq

_context = zmq.Context.instance()


class Client:
    """A DEALER that sends one request at a time and returns the raw reply frame."""

    def __init__(self, endpoint, timeout_ms=60_000):
        self.socket = _context.socket(zmq.DEALER)
        self.socket.linger = 0
        self.socket.rcvtimeo = timeout_ms
        self.socket.connect(endpoint)
        self.counter = 0

    def raw(self, type_name, body):
        self.counter += 1
        request = {"v": 1, "id": f"bench-{self.counter}", "type": type_name, "body": body}
        self.socket.send_multipart([b"", json.dumps(request, separators=(",", ":")).encode()])
        while True:
            frames = self.socket.recv_multipart()
            reply = frames[-1]
            if f'"id":"bench-{self.counter}"'.encode() in reply:
                return reply

    def call(self, type_name, body):
        """The reply's body; raises on an error reply."""
        reply = json.loads(self.raw(type_name, body))
        if not reply.get("ok"):
            raise RuntimeError(f"{type_name} failed: {reply.get('error')}")
        return reply["body"]

    def close(self):
        self.socket.close()


def located_stations(ingest_endpoint):
    """(version, updated, stations) of every station with a usable location, in snapshot order
    (retailers as the index lists them), as price-ingest's snapshot gives them."""
    client = Client(ingest_endpoint)
    index = client.call("ingest.snapshot", {})
    stations, updated = [], None
    for entry in index.get("retailers") or []:
        state = client.call("ingest.snapshot", {"retailer": entry["retailer"]}).get("state") or {}
        updated = updated or state.get("updated")
        stations += [station for station in state.get("stations", []) if station.get("location")]
    client.close()
    return index["version"], updated, stations


def query_points(stations, count, seed):
    """Points jittered around stations, as `fuelboard loadtest --points stations` draws them."""
    rng = random.Random(seed)
    points = []
    for _ in range(count):
        location = stations[rng.randrange(len(stations))]["location"]
        points.append((location["lat"] + rng.uniform(-0.03, 0.03), location["lng"] + rng.uniform(-0.045, 0.045)))
    return points


def typical_reply_bytes(lookup_endpoint, points, fuel="B7", radius=5.0):
    """The median size of fuel-lookup's reply frame for `lookup.cheapest` (limit 1) at `points`."""
    client = Client(lookup_endpoint)
    sizes = [len(client.raw("lookup.cheapest", {"fuel": fuel, "lat": lat, "lng": lng, "radiusMiles": radius,
                                                "limit": 1}))
             for lat, lng in points]
    client.close()
    return int(statistics.median(sizes))


def service_latency(endpoint):
    """(request count, mean µs) of a service's handling time so far, from `sys.stats`."""
    client = Client(endpoint, timeout_ms=5_000)
    latency = client.call("sys.stats", {})["latencyMicroseconds"]
    client.close()
    return latency["count"], latency["mean"]


def mean_between(before, after):
    """The mean handling time of the requests answered between two `service_latency` readings."""
    count = after[0] - before[0]
    if count <= 0:
        return None
    return (after[0] * after[1] - before[0] * before[1]) / count


class SnapshotSampler:
    """Answers `ingest.snapshot` like price-ingest, with one retailer holding a uniform sample of
    the loaded stations (all of them up to `limit`, in order). `fuelboard loadtest --points
    stations` reads the whole snapshot on every run (some 40 s at 1M stations); a sample of 50,000
    gives the same station-weighted distribution of query points."""

    def __init__(self, version, updated, stations, limit=50_000, seed=1):
        if len(stations) > limit:
            keep = sorted(random.Random(seed).sample(range(len(stations)), limit))
            stations = [stations[index] for index in keep]
        state = {"version": version, "retailer": "bench-sample", "updated": updated, "stations": stations}
        self.index_body = json.dumps({"version": version, "retailers": [
            {"retailer": "bench-sample", "version": version, "stationCount": len(stations)}]}).encode()
        self.state_body = json.dumps({"version": version, "state": state}, separators=(",", ":")).encode()
        self.socket = _context.socket(zmq.ROUTER)
        self.socket.linger = 0
        self.socket.bind("tcp://127.0.0.1:*")
        self.endpoint = self.socket.getsockopt_string(zmq.LAST_ENDPOINT)
        self.count = len(stations)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        poller = zmq.Poller()
        poller.register(self.socket, zmq.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(100):
                continue
            frames = self.socket.recv_multipart()
            try:
                request = json.loads(frames[-1])
                request_id = json.dumps(request.get("id"))
                wants_retailer = bool((request.get("body") or {}).get("retailer"))
            except (ValueError, AttributeError):
                continue
            body = self.state_body if wants_retailer else self.index_body
            reply = b'{"body":' + body + b',"id":' + request_id.encode() + b',"ok":true,"v":1}'
            self.socket.send_multipart(frames[:-1] + [reply])

    def close(self):
        self._stop.set()
        self._thread.join()
        self.socket.close()
