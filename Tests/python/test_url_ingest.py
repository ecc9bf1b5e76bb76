"""ingest.feed with a `file://` URL and with an `http://127.0.0.1:PORT/...` URL of a real feed.

The local HTTP server refuses requests without a User-Agent header (403), to prove that
price-ingest sends one, as real retailer endpoints expect.
"""

import http.client
import http.server
import json
import signal
import socket
import sys
import threading
import time
import zlib

import pytest

from conftest import REAL_DATA, memory_mib, needs_real_data, start_price_ingest
from fbclient import Client, assert_error

FEED = "uk-cma-snapshot-2025-10-09/asda.json"


def _bomb():
    """1 GiB of JSON whitespace as a ~1 MB gzip, made once on first use."""
    if not _BOMB:
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)
        block = b" " * (1 << 20)
        parts = [packer.compress(b"{")] + [packer.compress(block) for _ in range(1024)]
        _BOMB.append(b"".join(parts) + packer.compress(b"}") + packer.flush())
    return _BOMB[0]


_BOMB = []
RAW_FEED = "uk-cma-shell-2025-04-13-raw.json"

pytestmark = [needs_real_data]


class FeedHandler(http.server.BaseHTTPRequestHandler):
    """Serves files under REAL_DATA; 403 without User-Agent; a few special paths."""

    server_version = "FuelBoardTestFeeds/1"

    def do_GET(self):
        self.server.seen.append({"path": self.path, "user_agent": self.headers.get("User-Agent")})
        if not self.headers.get("User-Agent"):
            return self._send(403, b"a User-Agent header is required\n", "text/plain")
        if self.path == "/slow.json":
            self.server.release.wait(10)
            return self._send(200, b'{"stations": []}', "application/json")
        if self.path == "/hang.json":
            self.server.hang.wait(20)
            return self._send(200, b'{"stations": []}', "application/json")
        if self.path == "/bomb.json":
            bomb = _bomb()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            try:
                self.wfile.write(bomb)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/endless.json":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(40_000):  # 2.5 GiB at most: far past any limit, never reached
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path == "/not-json.json":
            return self._send(200, b"<html>maintenance</html>", "text/html")
        if self.path == "/server-error.json":
            return self._send(500, b"oops", "text/plain")
        if self.path == "/forbidden.json":
            return self._send(403, b"go away", "text/plain")
        if self.path == "/redirect-to-file.json":
            self.send_response(302)
            self.send_header("Location", "file:///etc/hostname")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/redirect-to-nowhere.json":
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{self.server.nowhere_port}/feed.json")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/redirect-loop.json":
            self.send_response(302)
            self.send_header("Location", "/redirect-loop.json")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        relative = self.path.split("?")[0].lstrip("/")
        path = (REAL_DATA / relative).resolve()
        if REAL_DATA.resolve() not in path.parents or not path.is_file():
            return self._send(404, b"not found\n", "text/plain")
        # Shell's real endpoint serves JSON from an .html URL as an octet stream (DATA.md).
        self._send(200, path.read_bytes(), "application/octet-stream")

    def _send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class FeedServer(http.server.ThreadingHTTPServer):
    """The feed server, quiet when price-ingest gives up on a fetch mid-reply (what the timeout,
    size and hanging tests make it do); any other handler error is still printed."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def feed_server():
    server = FeedServer(("127.0.0.1", 0), FeedHandler)
    server.seen = []
    server.release = threading.Event()
    server.hang = threading.Event()
    # A port held bound and not listening: a connection to it is refused.
    nowhere = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    nowhere.bind(("127.0.0.1", 0))
    server.nowhere_port = nowhere.getsockname()[1]
    thread = threading.Thread(target=server.serve_forever, name="feed-server", daemon=True)
    thread.start()
    server.base = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()
    nowhere.close()
    thread.join(timeout=5)


def send_ingest(client, request_id, retailer, url):
    """Sends an ingest.feed by URL without waiting for its reply."""
    client.send_frames([json.dumps({"v": 1, "id": request_id, "type": "ingest.feed", "body": {
        "retailer": retailer, "url": url}}).encode()])


def retailer_state(stack, retailer):
    state = stack.ingest_client.call("ingest.snapshot", {"retailer": retailer})
    stations = state.get("state", state).get("stations", [])
    return sorted((json.dumps({k: v for k, v in s.items() if k != "updated"}, sort_keys=True) for s in stations))


def test_ingestFeed_fromFileUrl_equalsTheInlineFeed(stack):
    path = REAL_DATA / FEED
    by_url = stack.ingest_feed("asda", url=path.as_uri())
    url_state = retailer_state(stack, "asda")
    inline = stack.ingest_feed("asda", feed=json.loads(path.read_bytes()))
    assert by_url["version"] < inline["version"]
    for key in ("accepted", "rejected", "withoutLocation"):
        assert by_url[key] == inline[key], key
    assert by_url["accepted"] == len(json.loads(path.read_bytes())["stations"])
    assert retailer_state(stack, "asda") == url_state


def test_feedServer_refusesRequestsWithoutUserAgent(feed_server):
    """The check below proves something only if the server really refuses such requests."""
    host, port = feed_server.server_address
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        connection.request("GET", f"/{FEED}")  # http.client sends no User-Agent unless told to
        assert connection.getresponse().status == 403
    finally:
        connection.close()


def test_ingestFeed_fromHttpUrl_sendsUserAgentAndEqualsTheFileUrl(stack, feed_server):
    by_file = stack.ingest_feed("asda", url=(REAL_DATA / FEED).as_uri())
    file_state = retailer_state(stack, "asda")
    before = len(feed_server.seen)
    by_http = stack.ingest_feed("asda", url=f"{feed_server.base}/{FEED}")
    requests = feed_server.seen[before:]
    assert requests and all(r["user_agent"] for r in requests), f"requests without User-Agent: {requests}"
    assert by_http["accepted"] == by_file["accepted"] and by_http["version"] > by_file["version"]
    assert retailer_state(stack, "asda") == file_state
    reply = stack.lookup_client.call("lookup.cheapest", {"fuel": "B7", "lat": 51.4893, "lng": 0.0239,
                                                         "radiusMiles": 3, "limit": 5, "retailer": "asda"})
    assert reply["results"] and reply.get("version", by_http["version"]) == by_http["version"]


def test_ingestFeed_fromHttpUrl_ofAByteExactRawCapture(stack, feed_server):
    body = stack.ingest_feed("shell", url=f"{feed_server.base}/{RAW_FEED}")
    assert body["accepted"] == len(json.loads((REAL_DATA / RAW_FEED).read_bytes())["stations"])


@pytest.mark.parametrize("path,code,says", [
    # Every failure was `unavailable` ("try again later"), and a refused redirect said "HTTP 302".
    ("/does-not-exist.json", "not_found", "HTTP 404 from 127.0.0.1"),
    ("/forbidden.json", "bad_request", "HTTP 403 from 127.0.0.1"),
    # Tried three times: the message says so (it read as one attempt: operator QA).
    ("/server-error.json", "unavailable", "HTTP 500 from 127.0.0.1 (the last of 3 attempts)"),
    ("/redirect-to-file.json", "bad_request", "redirected (HTTP 302) where it cannot be followed"),
    ("/redirect-loop.json", "bad_request", "at most 5 redirects"),
    # A redirect followed to a server that does not answer is that server's failure, worth retrying.
    ("/redirect-to-nowhere.json", "unavailable", "fetch from 127.0.0.1 failed"),
    ("/not-json.json", "bad_request", ""),
])
def test_ingestFeed_fromAFailingHttpUrl_getsAnErrorAndKeepsTheStoredFeed(stack, feed_server, path, code, says):
    stored = stack.ingest_feed("asda", url=(REAL_DATA / FEED).as_uri())
    before = retailer_state(stack, "asda")
    reply = stack.ingest_client.request("ingest.feed", {"retailer": "asda", "url": feed_server.base + path})
    assert_error(reply, code)
    assert says in reply["error"]["message"], reply
    assert stack.ingest_client.call("ingest.snapshot", {})["version"] == stored["version"]
    assert retailer_state(stack, "asda") == before


def test_ingestFeed_fromAFileUrlThatIsMissing_isNotFound(stack, tmp_path):
    reply = stack.ingest_client.request("ingest.feed", {"retailer": "asda", "url": (tmp_path / "gone.json").as_uri()})
    assert_error(reply, "not_found")
    assert "gone.json" in reply["error"]["message"], reply


@pytest.mark.time_limit(30)
def test_ingestFeed_fromAHangingHttpUrl_timesOutAndStaysResponsive(tmp_path, zmq_context, feed_server):
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--fetch-timeout", "2s"))
    endpoint = ingest.endpoints["listening"]
    try:
        with Client(zmq_context, endpoint, 15_000) as client, Client(zmq_context, endpoint, 5_000) as other:
            send_ingest(client, "slow", "asda", feed_server.base + "/slow.json")
            started = time.monotonic()
            # While the fetch hangs, the service keeps answering other requests.
            assert other.call("sys.ping")["service"] == "price-ingest"
            assert time.monotonic() - started < 1.5, "sys.ping waited for the hanging fetch"
            reply = client.recv_reply(timeout_ms=15_000)
            elapsed = time.monotonic() - started
            assert_error(reply, "timeout", "unavailable", id_="slow")
            assert elapsed < 12, f"a 2 s fetch timeout took {elapsed:.1f} s to answer"
            assert other.call("ingest.snapshot", {})["version"] == 0
    finally:
        feed_server.release.set()
        ingest.kill()


def test_ingestFeed_fromAUrlStillHangingWhenAStopEnds_isToldItDidNotFinish(tmp_path, zmq_context, feed_server):
    """A stop finishes the requests in hand for up to 12 s; a fetch still waiting on its URL then
    is answered `unavailable` saying so (the client read "the connection closed"), and what
    arrives after is not stored."""
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--fetch-timeout", "30s"))
    endpoint = ingest.endpoints["listening"]
    try:
        with Client(zmq_context, endpoint, 20_000) as client:
            send_ingest(client, "hung", "asda", feed_server.base + "/hang.json")
            wait_until_requested(feed_server, "/hang.json", "the hanging fetch")
            ingest.send_signal(signal.SIGTERM)
            reply = client.recv_reply(timeout_ms=20_000)
            assert_error(reply, "unavailable", id_="hung")
            assert "price-ingest is stopping and the fetch did not finish" in reply["error"]["message"], reply
            assert ingest.proc.wait(timeout=10) == 0
    finally:
        feed_server.hang.set()
        ingest.kill()


def wait_until_requested(feed_server, path, what, timeout=10):
    """Waits (bounded) until the feed server has been asked for `path`."""
    deadline = time.monotonic() + timeout
    while not any(seen["path"] == path for seen in feed_server.seen):
        assert time.monotonic() < deadline, f"{what} never reached the feed server"
        time.sleep(0.02)


def timed_real_feed_ingest(client, feed_server):
    """Ingests the real Asda feed by URL; returns the seconds it took."""
    started = time.monotonic()
    reply = client.call("ingest.feed", {"retailer": "asda", "url": feed_server.base + "/" + FEED})
    assert reply["accepted"] > 0
    return time.monotonic() - started


def test_ingestFeed_fromAUrl_doesNotWaitBehindAPollThatHangs(tmp_path, zmq_context, feed_server):
    """Polls and requested fetches used one queue: a user's ingest.feed waited behind every poll of
    a retailer whose server hangs (up to three attempts of --fetch-timeout each)."""
    feed_server.hang = threading.Event()
    feeds = tmp_path / "feeds.list"
    feeds.write_text(f"hangco {feed_server.base}/hang.json\n")
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--feeds", str(feeds), "--fetch-timeout", "15s"))
    try:
        wait_until_requested(feed_server, "/hang.json", "the poll")
        with Client(zmq_context, ingest.endpoints["listening"], 12_000) as client:
            elapsed = timed_real_feed_ingest(client, feed_server)
        assert elapsed < 5, f"the requested fetch took {elapsed:.1f} s behind the hanging poll"
    finally:
        feed_server.hang.set()
        ingest.kill()


@pytest.mark.parametrize("path", ["/bomb.json", "/endless.json"])
def test_ingestFeed_ofABodyPastTheLimit_isRefusedWithoutHoldingIt(tmp_path, zmq_context, feed_server, path):
    """A 1 MB gzip that unpacks to 1 GiB, or a body that never ends: the body was held whole before
    its size was checked (the bomb took price-ingest to 2.1 GB and crashed it under a memory limit;
    an endless body to 3 GB). Now the transfer stops once the body passes the 32 MiB limit (the feed limit however it comes)."""
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--fetch-timeout", "30s"))
    try:
        with Client(zmq_context, ingest.endpoints["listening"], 60_000) as client:
            started = time.monotonic()
            reply = client.request("ingest.feed", {"retailer": "bomb", "url": feed_server.base + path})
            elapsed = time.monotonic() - started
            assert_error(reply, "too_large")
            assert "limit" in reply["error"]["message"], reply
            assert elapsed < 25, f"{elapsed:.1f} s to refuse it"
            peak = memory_mib(ingest.pid, "VmHWM")
            assert peak < 180, f"price-ingest peaked at {peak:.0f} MiB fetching {path}"
            assert client.call("sys.ping")["service"] == "price-ingest"
    finally:
        ingest.kill()


def test_ingestFeed_fromAUrl_doesNotWaitBehindAnotherRequestedFetchThatHangs(tmp_path, zmq_context, feed_server):
    """Requested fetches ran one at a time: a client's feed waited ~63 s behind another client's
    fetch from a server that stalls (an outside chaos test)."""
    feed_server.hang = threading.Event()
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--fetch-timeout", "15s"))
    endpoint = ingest.endpoints["listening"]
    try:
        with Client(zmq_context, endpoint, 20_000) as stalled, Client(zmq_context, endpoint, 12_000) as client:
            send_ingest(stalled, "stalled", "hangco", feed_server.base + "/hang.json")
            wait_until_requested(feed_server, "/hang.json", "the stalled fetch")
            elapsed = timed_real_feed_ingest(client, feed_server)
        assert elapsed < 5, f"the second fetch took {elapsed:.1f} s behind the stalled one"
    finally:
        feed_server.hang.set()
        ingest.kill()


def test_ingestFeed_fromAUrl_doesNotWaitBehindHangingFetchesFromAnotherServer(tmp_path, zmq_context, feed_server):
    """Four hanging fetches from one server held every other client's URL ingest for about 63 s
    (a re-check): fetches queue per server now."""
    hanging = FeedServer(("127.0.0.1", 0), FeedHandler)
    hanging.seen = []
    hanging.hang = threading.Event()
    hanging.release = threading.Event()
    thread = threading.Thread(target=hanging.serve_forever, daemon=True)
    thread.start()
    hang_url = f"http://127.0.0.1:{hanging.server_address[1]}/hang.json"
    ingest = start_price_ingest(tmp_path / "data", tmp_path, extra=("--fetch-timeout", "15s"))
    endpoint = ingest.endpoints["listening"]
    try:
        with Client(zmq_context, endpoint, 20_000) as stalled, Client(zmq_context, endpoint, 12_000) as client:
            for number in range(4):
                send_ingest(stalled, f"stalled-{number}", f"hang{number}", hang_url)
            wait_until_requested(hanging, "/hang.json", "the hanging fetches")
            elapsed = timed_real_feed_ingest(client, feed_server)
        assert elapsed < 5, f"the fetch from another server took {elapsed:.1f} s behind four hanging ones"
    finally:
        hanging.hang.set()
        ingest.kill()
        hanging.shutdown()
        hanging.server_close()


def test_ingestFeed_fromAUrlWithCredentials_showsThemNowhere(stack, feed_server):
    """ingest.status showed a feed URL's user, password and token to any client (a re-check)."""
    port = feed_server.server_address[1]
    url = f"http://reader:s3cret@127.0.0.1:{port}/{FEED}?token=t0ken"
    stack.ingest_feed("asda", url=url)
    status = json.dumps(stack.ingest_client.call("ingest.status"))
    stats = json.dumps(stack.ingest_client.call("sys.stats"))
    for secret in ("s3cret", "t0ken", "reader"):
        assert secret not in status and secret not in stats, secret
    assert f"http://127.0.0.1:{port}/{FEED}?\\u2026" in status, status
    log = "\n".join(stack.ingest.lines)
    assert "s3cret" not in log and "t0ken" not in log, log
