"""Requests over the FuelBoard wire contract (one JSON frame after an empty delimiter, DEALER
sockets, a timeout on every receive), used for pings, stats, feeds and the warm-up asks.
"""

import itertools
import json
import time

import zmq

_ids = itertools.count(1)


def _socket(ctx, endpoint):
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.CONNECT_TIMEOUT, 1000)
    sock.setsockopt(zmq.RECONNECT_IVL, 100)
    sock.connect(endpoint)
    return sock


def _request(type_, body):
    request_id = f"lab-{next(_ids)}"
    frame = json.dumps({"v": 1, "id": request_id, "type": type_, "body": body}).encode()
    return request_id, frame


def gather(ctx, endpoints, type_, body=None, timeout=1.0):
    """Sends one request to each of `endpoints` ({name: endpoint}) at once and returns
    {name: reply} for those that answered within `timeout` seconds (the others are left out).
    """
    pending = {}
    poller = zmq.Poller()
    sockets = []
    try:
        for name, endpoint in endpoints.items():
            sock = _socket(ctx, endpoint)
            sockets.append(sock)
            request_id, frame = _request(type_, {} if body is None else body)
            sock.send_multipart([b"", frame])
            pending[sock] = (name, request_id)
            poller.register(sock, zmq.POLLIN)
        replies = {}
        deadline = time.monotonic() + timeout
        while pending:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for sock, _ in poller.poll(max(1, int(left * 1000))):
                name, request_id = pending[sock]
                frames = sock.recv_multipart()
                try:
                    reply = json.loads(frames[-1])
                except ValueError:
                    continue
                if isinstance(reply, dict) and reply.get("id") == request_id:
                    replies[name] = reply
                    poller.unregister(sock)
                    del pending[sock]
        return replies
    finally:
        for sock in sockets:
            sock.close(linger=0)


def call(ctx, endpoint, type_, body=None, timeout=1.0):
    """One request; returns the whole reply, or None when none came within `timeout` seconds."""
    return gather(ctx, {"it": endpoint}, type_, body, timeout).get("it")


def stats_bodies(ctx, endpoints, timeout=0.5):
    """{name: sys.stats body} of the services that answered."""
    replies = gather(ctx, endpoints, "sys.stats", timeout=timeout)
    return {name: reply.get("body") or {} for name, reply in replies.items() if reply.get("ok") is True}
