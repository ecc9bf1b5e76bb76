"""A small pyzmq client for the FuelBoard wire contract (CONTRACT.md, "Wire format").

Every receive has a timeout: a service that does not answer makes the caller see
`NoReply`, never a hang.
"""

import itertools
import json
import time

import zmq

DEFAULT_TIMEOUT_MS = 10_000

_ids = itertools.count(1)


class NoReply(AssertionError):
    """The service did not answer within the timeout."""


class ServiceErrorReply(AssertionError):
    """The service answered `ok: false` where the caller expected success."""

    def __init__(self, reply):
        super().__init__(f"error reply: {reply.get('error')!r}")
        self.reply = reply


class Client:
    """One DEALER socket connected to one service endpoint.

    A DEALER (not REQ) is used so that a missing reply never wedges the socket: the next
    request simply goes out, and stale replies are skipped by id.
    """

    def __init__(self, ctx, endpoint, timeout_ms=DEFAULT_TIMEOUT_MS):
        self.endpoint = endpoint
        self.timeout_ms = timeout_ms
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.setsockopt(zmq.RCVTIMEO, timeout_ms)
        self.sock.setsockopt(zmq.SNDTIMEO, timeout_ms)
        self.sock.connect(endpoint)

    def close(self):
        self.sock.close(linger=0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- raw frames -------------------------------------------------------------------

    def send_frames(self, frames):
        """Sends the given payload frames (after the empty delimiter a REQ would add)."""
        self.sock.send_multipart([b""] + list(frames), copy=False)

    def recv_reply(self, timeout_ms=None):
        """Receives one reply and returns the decoded JSON object; raises NoReply on timeout."""
        poller = zmq.Poller()
        poller.register(self.sock, zmq.POLLIN)
        wait = self.timeout_ms if timeout_ms is None else timeout_ms
        if not poller.poll(wait):
            raise NoReply(f"no reply from {self.endpoint} within {wait} ms")
        frames = self.sock.recv_multipart(zmq.NOBLOCK)
        assert frames and frames[0] == b"", f"reply lacks the empty delimiter frame: {frames[:2]!r}"
        assert len(frames) == 2, f"a reply is exactly one frame after the delimiter, got {len(frames) - 1}"
        try:
            return json.loads(frames[1])
        except ValueError as error:
            raise AssertionError(f"reply is not JSON: {frames[1][:200]!r}") from error

    def send_raw(self, payload, timeout_ms=None):
        """Sends one raw payload frame and returns the decoded reply."""
        self.send_frames([payload])
        return self.recv_reply(timeout_ms)

    # -- requests ---------------------------------------------------------------------

    def request(self, type_, body=None, timeout_ms=None, request_id=None):
        """Sends a v1 request and returns the whole reply (ok or not), matched by id."""
        rid = request_id if request_id is not None else f"t{next(_ids)}"
        message = {"v": 1, "id": rid, "type": type_, "body": {} if body is None else body}
        self.send_frames([json.dumps(message).encode()])
        # Late replies to earlier requests are skipped, within one overall wait.
        wait = self.timeout_ms if timeout_ms is None else timeout_ms
        deadline = time.monotonic() + wait / 1000
        while True:
            left = int((deadline - time.monotonic()) * 1000)
            if left <= 0:
                raise NoReply(f"no reply to {rid} from {self.endpoint} within {wait} ms")
            reply = self.recv_reply(left)
            if reply.get("id") == rid:
                return reply

    def call(self, type_, body=None, timeout_ms=None):
        """Sends a request and returns its body; raises ServiceErrorReply on `ok: false`."""
        reply = self.request(type_, body, timeout_ms)
        if reply.get("ok") is not True:
            raise ServiceErrorReply(reply)
        return reply.get("body")

    def pipeline(self, requests, window=64, timeout_ms=None):
        """Sends many `(type, body)` requests keeping up to `window` in flight.

        Returns the replies in request order.
        """
        replies = [None] * len(requests)
        pending = {}
        sent = 0
        while sent < len(requests) or pending:
            while sent < len(requests) and len(pending) < window:
                rid = f"p{next(_ids)}"
                type_, body = requests[sent]
                self.send_frames([json.dumps({"v": 1, "id": rid, "type": type_, "body": body}).encode()])
                pending[rid] = sent
                sent += 1
            reply = self.recv_reply(timeout_ms)
            index = pending.pop(reply.get("id"), None)
            if index is not None:
                replies[index] = reply
        return replies


def assert_error(reply, *codes, id_=...):
    """Asserts an `ok: false` reply with one of `codes` (and, if given, that id)."""
    assert reply.get("v") == 1, f"reply lacks v=1: {reply!r}"
    assert reply.get("ok") is False, f"expected an error reply, got {json.dumps(reply)[:300]}"
    error = reply.get("error")
    assert isinstance(error, dict), f"error reply without an error object: {reply!r}"
    assert error.get("code") in codes, f"expected code in {codes}, got {error!r}"
    assert isinstance(error.get("message"), str) and error["message"], f"error without message: {error!r}"
    if id_ is not ...:
        assert "id" in reply and reply["id"] == id_, f"expected id {id_!r}, got {reply.get('id')!r}"
