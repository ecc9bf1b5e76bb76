"""Command-line options of deploy/netns/run."""

import argparse
import os
import pathlib
import sys

from .faults import DEFAULT_SCHEDULE, ScheduleError, parse_schedule

REPO_ROOT = pathlib.Path(__file__).resolve().parents[3]

DESCRIPTION = """\
The FuelBoard scale-out test across separate network hosts on one machine: Linux network
namespaces joined by veth pairs through a bridge (in a namespace of its own), on 10.77.0.0/24.

  host      address     runs
  ingest    10.77.0.11  price-ingest (5551 requests, 5552 updates)
  lookup1   10.77.0.21  fuel-lookup (5553), subscribed to ingest across the network
  lookup2   10.77.0.22  fuel-lookup (5553), subscribed to ingest across the network
  router1   10.77.0.31  intent-router (5550, plug-ins 5556), --lookup = both replicas
  router2   10.77.0.32  intent-router (5550, plug-ins 5556), --lookup = both replicas
  services  10.77.0.41  location-cache (5554), dialog-renderer (5555)
  client    10.77.0.51  this script: setup requests and the load

Steps: generate the sample feeds (fuelboard generate), start every service, ping each across
the network, ingest the feeds (fuelboard ingest), wait until BOTH replicas serve the last
version, send one ask to each router, then run the load for --duration seconds while the fault
schedule plays, then restore every cut link, resume paused processes, wait for the running
replicas to reach price-ingest's version, collect every service's sys.stats and print a summary.

Load: --concurrency clients (closed loop, or --rate asks per second), each asking "Ask FuelBoard
for the cheapest diesel near me" as users u1..uN with a location in a big town of the sample data.
Each ask goes to the routers in turn (a DEALER per router per client, ZMQ_IMMEDIATE: a router
with no live connection refuses at once and the next one is tried); a try gets --attempt-timeout
seconds, then its socket is reopened (Lazy Pirate), that router is avoided for --bench seconds
and the ask goes to the other router, until --ask-deadline seconds after it was first sent.
"""

EPILOG = f"""\
fault schedule (--faults): comma-separated SECONDS:ACTION:TARGET, SECONDS after the load began
  kill|term|pause|resume PROCESS   SIGKILL | SIGTERM | SIGSTOP | SIGCONT the process
  start PROCESS                    start it again (same host, flags and data directory)
  cut|restore HOST                 take the host's switch port down | up (a PROCESS names its host):
                                   packets dropped, TCP connections left open, nobody told
  update RETAILER|any              re-send that sample feed to price-ingest (a new version)
  none                             no faults
  PROCESS: ingest lookup1 lookup2 location dialog router1 router2
  HOST:    ingest lookup1 lookup2 router1 router2 services client
  default: {DEFAULT_SCHEDULE}

output: progress on stderr; the summary on stdout, as text or (--json) one JSON document:
  pass, failures, load {{asksSent, answered, answeredOkByCode, answeredWithErrorByCode,
  unanswered, badReplies, retriedAsks, latencyMs, perRouter, notSuccess, timeline (per second)}},
  routers {{answeredForClients, asksServed, backend* counters}}, replicas {{lookupsServed by life,
  lookupsBeforeFirstFault, errorReplies, finalVersion}}, versions, sameVersion, faults, restarts

what counts (exit status):
  answered     a proper reply within the ask's deadline: ok with a non-empty dialog and a code
               (success, failure, ...), or an error reply with a code and a message
  unanswered   no reply from any router within --ask-deadline
  bad reply    anything else (not JSON, wrong frames, ok without dialog text)
  0  no ask unanswered, no bad reply, every fault applied, every running fuel-lookup on
     price-ingest's version at the end (with --strict also: every answer ok with code success)
  1  any of that failed, or the lab could not be set up (a service did not start...)
  2  cannot run here: not root, no `ip`, no network namespaces or bridge, no pyzmq
  64 bad options;  128+N stopped by signal N (130 Ctrl-C, 143 SIGTERM); cleaned up in every case

Every process, namespace, veth and bridge is removed on exit, error or Ctrl-C; the work
directory (logs, data, feeds) too unless --keep or --log-dir. A run killed with SIGKILL leaves
its namespaces: --clean-stale removes those of runs that are gone.
"""


def _positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


def build_parser():
    parser = argparse.ArgumentParser(prog="deploy/netns/run", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--duration", type=_positive(float), default=10.0, help="seconds of load (default 10)")
    add("--faults", default=DEFAULT_SCHEDULE, help="the fault schedule (see below)")
    add("--concurrency", type=_positive(int), default=8,
        help="clients, each with at most one ask in flight (default 8)")
    add("--rate", type=_positive(float),
        help="open loop: start this many asks per second, on as many of the clients as are free "
             "(default: closed loop, every client asks again as soon as it is answered)")
    add("--users", type=_positive(int), default=50, help="distinct users u1..uN (default 50)")
    add("--attempt-timeout", type=_positive(float), default=2.5,
        help="seconds one try waits for its reply (default 2.5; above the routers' --deadline)")
    add("--ask-deadline", type=_positive(float), default=10.0,
        help="seconds an ask may take over all its tries before it counts as unanswered (default 10)")
    add("--bench", type=_positive(float), default=1.0,
        help="seconds a router that let a try time out is avoided (default 1)")
    add("--router-deadline", default="2s", help="intent-router --deadline (default 2s)")
    add("--stations", type=_positive(int), default=3000, help="sample stations (default 3000)")
    add("--seed", type=int, default=1, help="sample data seed (default 1)")
    add("--converge-timeout", type=_positive(float), default=15.0,
        help="seconds the replicas may take to reach price-ingest's version, at start and end (default 15)")
    add("--bin-dir", default=os.environ.get("FUELBOARD_BIN_DIR") or str(REPO_ROOT / ".build" / "debug"),
        help="where the binaries are [$FUELBOARD_BIN_DIR, default <repo>/.build/debug]")
    add("--prefix", default=f"fb-{os.getpid()}", help="namespace name prefix (default fb-<pid>)")
    add("--log-level", default="info", help="the services' --log-level (default info)")
    add("--log-dir", help="keep logs, data and feeds in this directory (created; implies --keep)")
    add("--keep", action="store_true", help="keep the work directory and print where it is")
    add("--json", action="store_true", help="print the summary as one JSON document on stdout")
    add("--strict", action="store_true", help="also fail on any answer that is not ok with code success")
    add("--clean-stale", action="store_true",
        help="remove namespaces left by runs of this script that are gone (fb-<pid>-*), then exit")
    return parser


def parse(argv):
    """The options, with `faults` parsed; exits 64 with one line on a bad option."""
    parser = build_parser()
    parser.error = lambda message: _usage_error(message)
    options = parser.parse_args(argv)
    try:
        options.fault_list = parse_schedule(options.faults, options.duration)
    except ScheduleError as error:
        _usage_error(f"--faults: {error}")
    if options.attempt_timeout > options.ask_deadline:
        _usage_error("--attempt-timeout must not exceed --ask-deadline")
    return options


def _usage_error(message):
    print(f"deploy/netns/run: {message} (see --help)", file=sys.stderr)
    sys.exit(64)
