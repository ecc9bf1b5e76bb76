"""What the load saw: every ask's fate, per router and per second, and the judgement of a reply.

A reply is *proper* when it is one JSON frame after the empty delimiter, echoes the attempt's id,
and is either `ok: true` with a body whose `dialog` is a non-empty string and `code` a string, or
`ok: false` with an `error` holding a `code` and a non-empty `message`.
"""

import collections


def classify(reply):
    """('ok', code, dialog) | ('error', code, message) | ('bad', reason, None) for a decoded reply."""
    if not isinstance(reply, dict) or reply.get("v") != 1:
        return "bad", "not a v1 reply object", None
    if reply.get("ok") is True:
        body = reply.get("body")
        if not isinstance(body, dict):
            return "bad", "ok reply without a body", None
        dialog = body.get("dialog")
        if not isinstance(dialog, str) or not dialog.strip():
            return "bad", "ok reply without dialog text", None
        code = body.get("code")
        if not isinstance(code, str) or not code:
            return "bad", "ok reply without a code", None
        return "ok", code, dialog
    if reply.get("ok") is False:
        error = reply.get("error")
        if isinstance(error, dict) and isinstance(error.get("code"), str) \
                and isinstance(error.get("message"), str) and error["message"]:
            return "error", error["code"], error["message"]
        return "bad", "error reply without code or message", None
    return "bad", "reply without ok", None


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * (len(sorted_values) - 1)))))
    return sorted_values[index]


class LoadResults:
    """Counters of one load run; times are seconds since the load began (`t0`)."""

    def __init__(self, t0, routers):
        self.t0 = t0
        self.finished = None
        self.routers = list(routers)
        self.asks_sent = 0
        self.answered_ok = collections.Counter()        # assistant code -> asks
        self.answered_error = collections.Counter()     # error code -> asks
        self.bad = []                                   # (t, router, reason, excerpt)
        self.unanswered_asks = []                       # (t first sent, tries, user)
        self.latencies = []
        self.retried_asks = 0
        self.per_router = {name: collections.Counter() for name in self.routers}
        self.not_success = collections.defaultdict(lambda: {"count": 0, "first": None, "last": None,
                                                            "routers": collections.Counter()})
        self.seconds = collections.defaultdict(collections.Counter)

    def _t(self, now):
        return now - self.t0

    def _second(self, now):
        return self.seconds[int(self._t(now))]

    def sent(self, now):
        self.asks_sent += 1
        self._second(now)["sent"] += 1

    def delayed(self, now):
        """Open loop: an ask was due but every client was busy (it starts when one is free)."""
        self._second(now)["delayedNoFreeClient"] += 1

    def attempt(self, router, is_retry, now):
        self.per_router[router]["attempts"] += 1
        if is_retry:
            self._second(now)["retries"] += 1

    def refused(self, router, now):
        self.per_router[router]["refused"] += 1
        self._second(now)[f"refused:{router}"] += 1

    def attempt_timed_out(self, router, now):
        self.per_router[router]["timeouts"] += 1
        self._second(now)[f"timeout:{router}"] += 1

    def late(self, router):
        self.per_router[router]["late"] += 1

    def bad_reply(self, router, reason, excerpt, now):
        self.bad.append((round(self._t(now), 3), router, reason, bytes(excerpt).decode("utf-8", "replace")))
        self._second(now)["bad"] += 1

    def unanswered(self, ask, now):
        self.unanswered_asks.append((round(ask.started - self.t0, 3), ask.attempts, ask.body["user"]))
        self._second(now)["unanswered"] += 1

    def replied(self, ask, router, reply, now):
        kind, code, text = classify(reply)
        if kind == "bad":
            self.bad_reply(router, code, str(reply).encode(), now)
            return
        self.latencies.append(now - ask.started)
        if ask.attempts > 1:
            self.retried_asks += 1
        self.per_router[router]["answered"] += 1
        second = self._second(now)
        second[f"answered:{router}"] += 1
        if kind == "ok":
            self.answered_ok[code] += 1
            second[f"ok:{code}"] += 1
        else:
            self.answered_error[code] += 1
            second[f"error:{code}"] += 1
        if kind == "error" or code != "success":
            entry = self.not_success[f"{kind} {code}: {text}"]
            entry["count"] += 1
            entry["first"] = entry["first"] if entry["first"] is not None else round(self._t(now), 3)
            entry["last"] = round(self._t(now), 3)
            entry["routers"][router] += 1

    # -- summary ----------------------------------------------------------------------------

    def summary(self):
        ordered = sorted(self.latencies)
        ms = lambda value: None if value is None else round(value * 1000, 1)  # noqa: E731
        elapsed = (self.finished or self.t0) - self.t0
        answered = sum(self.answered_ok.values()) + sum(self.answered_error.values())
        return {
            "asksSent": self.asks_sent,
            "answered": answered,
            "answeredOk": sum(self.answered_ok.values()),
            "answeredOkByCode": dict(self.answered_ok),
            "answeredWithError": sum(self.answered_error.values()),
            "answeredWithErrorByCode": dict(self.answered_error),
            "unanswered": len(self.unanswered_asks),
            "unansweredAsks": self.unanswered_asks[:50],
            "badReplies": len(self.bad),
            "badReplyExamples": self.bad[:10],
            "retriedAsks": self.retried_asks,
            "asksPerSecond": round(answered / elapsed, 1) if elapsed > 0 else None,
            "latencyMs": {"p50": ms(percentile(ordered, 0.50)), "p90": ms(percentile(ordered, 0.90)),
                          "p99": ms(percentile(ordered, 0.99)), "max": ms(ordered[-1] if ordered else None)},
            "perRouter": {name: dict(counts) for name, counts in self.per_router.items()},
            "notSuccess": {key: {**value, "routers": dict(value["routers"])}
                           for key, value in sorted(self.not_success.items(), key=lambda kv: -kv[1]["count"])},
            "timeline": [{"second": second, **dict(sorted(counts.items()))}
                         for second, counts in sorted(self.seconds.items())],
        }
