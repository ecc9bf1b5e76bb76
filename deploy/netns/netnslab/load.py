"""The load: `assistant.ask` clients spread over every router (closed loop, or open loop at a
fixed rate), each ask retried on another router until it gets a reply or its overall deadline
passes (the zguide's Lazy Pirate).

Every client holds one DEALER socket per router (`immediate`, so a router with no live
connection refuses the send at once and the ask goes to the next one). An attempt that gets no
reply within `attempt_timeout` is given up: that socket is closed and opened afresh (whatever was
queued on it is dropped), the router is avoided for `bench` seconds, and the ask is sent to the
other router. An ask nobody can take waits 0.1 s and tries again. An ask is *unanswered* when no
attempt got a reply before its deadline.
"""

import json
import time

import zmq

from .results import LoadResults

UTTERANCE = "Ask FuelBoard for the cheapest diesel near me"
#: Town centres of the generated sample data (SampleFeeds' towns weigh stations by population).
PLACES = (
    (53.8008, -1.5491),   # Leeds
    (53.4808, -2.2426),   # Manchester
    (51.5072, -0.1276),   # London
    (52.4862, -1.8904),   # Birmingham
)
RETRY_PAUSE = 0.1


class Ask:
    """One question from the moment it is first sent until it is answered or given up."""

    def __init__(self, number, user, place, started, deadline):
        self.number = number
        self.body = {"user": user, "utterance": UTTERANCE, "location": {"lat": place[0], "lng": place[1]}}
        self.started = started
        self.deadline = deadline
        self.attempts = 0
        self.attempt_id = None
        self.router = None
        self.attempt_deadline = None
        self.retry_at = None
        self.last_router = None


class Client:
    """One simulated user device: a socket per router and at most one ask in flight."""

    def __init__(self, index, ctx, routers):
        self.index = index
        self.ctx = ctx
        self.routers = routers
        self.sockets = {name: self._open(endpoint) for name, endpoint in routers.items()}
        self.ask = None

    def _open(self, endpoint):
        sock = self.ctx.socket(zmq.DEALER)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.IMMEDIATE, 1)
        sock.setsockopt(zmq.SNDHWM, 10)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        sock.setsockopt(zmq.CONNECT_TIMEOUT, 1000)
        sock.connect(endpoint)
        return sock

    def reopen(self, router):
        """Lazy Pirate: drops the socket to `router` (and anything queued on it) and connects afresh."""
        old = self.sockets[router]
        self.sockets[router] = self._open(self.routers[router])
        return old

    def close(self):
        for sock in self.sockets.values():
            sock.close(linger=0)


class LoadRun:
    """Drives the clients for `duration` seconds, then lets the asks in flight finish."""

    def __init__(self, ctx, routers, concurrency, users, attempt_timeout, ask_deadline, bench, rate=None):
        self.ctx = ctx
        self.rate = rate
        self.routers = dict(routers)
        self.router_names = list(self.routers)
        self.users = users
        self.attempt_timeout = attempt_timeout
        self.ask_deadline = ask_deadline
        self.bench = bench
        self.bench_until = {name: 0.0 for name in self.router_names}
        self.clients = [Client(i, ctx, self.routers) for i in range(concurrency)]
        self.poller = zmq.Poller()
        self.owner = {}
        for client in self.clients:
            for router, sock in client.sockets.items():
                self._watch(sock, client, router)
        self.next_number = 0
        self.started = None
        self.results = None

    def _watch(self, sock, client, router):
        self.poller.register(sock, zmq.POLLIN)
        self.owner[sock] = (client, router)

    def _unwatch(self, sock):
        self.poller.unregister(sock)
        del self.owner[sock]
        sock.close(linger=0)

    def close(self):
        for client in self.clients:
            for sock in client.sockets.values():
                if sock in self.owner:
                    self._unwatch(sock)
            client.close()

    # -- running ----------------------------------------------------------------------------

    def run(self, t0, duration):
        """Runs the load from monotonic time `t0` for `duration` seconds; returns LoadResults."""
        self.started = t0
        self.results = LoadResults(t0, self.router_names)
        end = t0 + duration
        self.next_due = t0
        self.waiting_slot = None
        while True:
            now = time.monotonic()
            sending = now < end
            if sending:
                self._begin_due(now)
            elif all(client.ask is None for client in self.clients):
                break
            self._expire(now)
            for sock, _ in self.poller.poll(self._poll_timeout(now, end if sending else None)):
                self._drain(sock)
        self.results.finished = time.monotonic()
        return self.results

    def _begin_due(self, now):
        """Closed loop: every idle client asks again. Open loop (`rate`): asks start on a fixed
        schedule; one that finds every client busy waits for the next free one (counted as delayed)."""
        idle = [client for client in self.clients if client.ask is None]
        if self.rate is None:
            for client in idle:
                self._begin(client, now)
            return
        while self.next_due <= now:
            if not idle:
                if self.waiting_slot != self.next_due:
                    self.waiting_slot = self.next_due
                    self.results.delayed(now)
                return
            self._begin(idle.pop(), now)
            self.next_due += 1.0 / self.rate

    def _poll_timeout(self, now, end):
        wakes = [end] if end else []
        if end and self.rate and any(client.ask is None for client in self.clients):
            wakes.append(self.next_due)
        for client in self.clients:
            ask = client.ask
            if ask is not None:
                wakes.append(ask.retry_at if ask.retry_at is not None else ask.attempt_deadline)
        soonest = min(wakes, default=now + 0.05)
        return max(1, min(100, int((soonest - now) * 1000) + 1))

    def _begin(self, client, now):
        number = self.next_number
        self.next_number += 1
        user = f"u{number % self.users + 1}"
        ask = Ask(number, user, PLACES[number % len(PLACES)], now, now + self.ask_deadline)
        ask.last_router = self.router_names[(number - 1) % len(self.router_names)]
        client.ask = ask
        self.results.sent(now)
        self._attempt(client, now)

    def _order(self, ask, now):
        """Routers to try, next after the last one tried first, benched ones last."""
        names = self.router_names
        start = (names.index(ask.last_router) + 1) % len(names) if ask.last_router in names else 0
        rotated = names[start:] + names[:start]
        return sorted(rotated, key=lambda name: self.bench_until[name] > now)

    def _attempt(self, client, now):
        ask = client.ask
        if now >= ask.deadline:
            self.results.unanswered(ask, now)
            client.ask = None
            return
        for router in self._order(ask, now):
            ask.attempts += 1
            attempt_id = f"c{client.index}-a{ask.number}-{ask.attempts}"
            frame = json.dumps({"v": 1, "id": attempt_id, "type": "assistant.ask", "body": ask.body}).encode()
            try:
                client.sockets[router].send_multipart([b"", frame], zmq.NOBLOCK)
            except zmq.Again:
                self.results.refused(router, now)
                ask.last_router = router
                continue
            self.results.attempt(router, ask.attempts > 1, now)
            ask.attempt_id = attempt_id
            ask.router = router
            ask.last_router = router
            ask.attempt_deadline = min(now + self.attempt_timeout, ask.deadline)
            ask.retry_at = None
            return
        ask.router = None
        ask.attempt_id = None
        ask.retry_at = min(now + RETRY_PAUSE, ask.deadline)

    def _expire(self, now):
        for client in self.clients:
            ask = client.ask
            if ask is None:
                continue
            if ask.retry_at is not None and ask.retry_at <= now:
                self._attempt(client, now)
            elif ask.router is not None and ask.attempt_deadline <= now:
                router = ask.router
                self.results.attempt_timed_out(router, now)
                self.bench_until[router] = now + self.bench
                old = client.reopen(router)
                self._unwatch(old)
                self._watch(client.sockets[router], client, router)
                ask.router = None
                self._attempt(client, now)

    def _drain(self, sock):
        while sock in self.owner:
            try:
                frames = sock.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            client, router = self.owner[sock]
            self._received(client, router, frames)

    def _received(self, client, router, frames):
        now = time.monotonic()
        ask = client.ask
        reply = None
        try:
            reply = json.loads(frames[-1])
        except ValueError:
            pass
        reply_id = reply.get("id") if isinstance(reply, dict) else None
        if ask is None or ask.attempt_id is None or reply_id != ask.attempt_id:
            if reply_id is None:
                self.results.bad_reply(router, "unreadable reply or no id", frames[-1][:200], now)
            else:
                self.results.late(router)
            return
        if len(frames) != 2 or frames[0] != b"":
            self.results.bad_reply(router, f"{len(frames)} frames", frames[-1][:200], now)
        else:
            self.results.replied(ask, router, reply, now)
        client.ask = None
