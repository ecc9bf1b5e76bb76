"""The fault schedule: its grammar, and a thread that applies it while the load runs.

    SCHEDULE = EVENT ("," EVENT)*  |  "none"
    EVENT    = SECONDS ":" ACTION ":" TARGET        seconds after the load began, e.g. 2 or 2.5

    kill | term | pause | resume | start : PROCESS  SIGKILL | SIGTERM | SIGSTOP | SIGCONT | start it again
    cut | restore                        : HOST     switch port down | up (a PROCESS names its host)
    update                               : RETAILER re-send that sample feed to price-ingest ("any": the next one)
"""

import signal
import threading
import time

from .network import HOSTS
from .services import PROCESSES

DEFAULT_SCHEDULE = "2:kill:lookup1,3:update:any,4:cut:router1,6:start:lookup1,7:restore:router1,8:update:any"
PROCESS_ACTIONS = {"kill": signal.SIGKILL, "term": signal.SIGTERM, "pause": signal.SIGSTOP,
                   "resume": signal.SIGCONT, "start": None}
LINK_ACTIONS = ("cut", "restore")
ACTIONS = tuple(PROCESS_ACTIONS) + LINK_ACTIONS + ("update",)


class ScheduleError(ValueError):
    pass


class Fault:
    def __init__(self, at, action, target):
        self.at = at
        self.action = action
        self.target = target

    def __str__(self):
        return f"{self.at:g}:{self.action}:{self.target}"


def parse_schedule(text, duration):
    """The events of a schedule string, in time order; raises ScheduleError naming the bad event."""
    text = text.strip()
    if text in ("", "none"):
        return []
    faults = []
    for item in text.split(","):
        parts = item.strip().split(":")
        if len(parts) != 3:
            raise ScheduleError(f"fault '{item.strip()}' is not SECONDS:ACTION:TARGET")
        at_text, action, target = (part.strip() for part in parts)
        try:
            at = float(at_text)
        except ValueError:
            raise ScheduleError(f"fault '{item.strip()}': '{at_text}' is not a number of seconds") from None
        if not 0 <= at < duration:
            raise ScheduleError(f"fault '{item.strip()}': {at_text} s is outside the load (0 to {duration:g} s, "
                                "the end excluded)")
        if action not in ACTIONS:
            raise ScheduleError(f"fault '{item.strip()}': unknown action '{action}' ({', '.join(ACTIONS)})")
        if action in PROCESS_ACTIONS and target not in PROCESSES:
            raise ScheduleError(f"fault '{item.strip()}': unknown process '{target}' ({', '.join(PROCESSES)})")
        if action in LINK_ACTIONS:
            if target in PROCESSES:
                target = PROCESSES[target][1]
            if target not in HOSTS:
                raise ScheduleError(f"fault '{item.strip()}': unknown host '{target}' "
                                    f"({', '.join(HOSTS)}, or a process)")
        faults.append(Fault(at, action, target))
    return sorted(faults, key=lambda fault: fault.at)


class FaultRunner(threading.Thread):
    """Applies each fault at its time through `apply(fault)` and records the outcome.

    `apply` returns a detail string, or an object with `result(timeout) -> (ok, detail)` for work
    that goes on in the background (its outcome is filled in by `stop`).
    """

    def __init__(self, faults, t0, apply):
        super().__init__(name="faults", daemon=True)
        self.faults = faults
        self.t0 = t0
        self.apply = apply
        self.stopping = threading.Event()
        self.log = []

    def run(self):
        for fault in self.faults:
            if self.stopping.wait(max(0.0, self.t0 + fault.at - time.monotonic())):
                return
            applied = time.monotonic() - self.t0
            try:
                detail, ok = self.apply(fault), True
            except Exception as error:  # a fault that cannot be applied is reported, never fatal here
                detail, ok = f"{type(error).__name__}: {error}", False
            self.log.append({"fault": str(fault), "at": round(applied, 3), "ok": ok, "detail": detail})

    def stop(self, background_timeout=15.0):
        """Stops applying faults and waits for background ones to finish."""
        self.stopping.set()
        if self.ident is not None:
            self.join(timeout=30)
        for entry in self.log:
            if hasattr(entry["detail"], "result"):
                entry["ok"], entry["detail"] = entry["detail"].result(background_timeout)
