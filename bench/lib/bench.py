"""bench/run's body: build, prepare the data sets, measure each one, print the table, judge targets.

Run through bench/run, which installs what this needs and runs it with the project's venv Python."""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from procs import install_cleanup, say, stop_all
from report import table, targets
from stack import AssistantStack, Binaries

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REAL_FEEDS = os.path.join(ROOT, "..", "shared", "data", "real", "uk-cma-snapshot-2025-10-09")
DATA_CACHE = os.path.join(ROOT, ".build", "bench-data")
RESULTS = os.path.join(ROOT, ".build", "bench-results.json")
GENERATED = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}
REQUIRED = ("price-ingest", "fuel-lookup", "fuelboard", "zmq-echo")
DERBY = (52.921, -1.476)


def parse_options(argv):
    parser = argparse.ArgumentParser(prog="bench/run", description=(
        "Measures fuel-lookup against Redis GEOSEARCH and a bare ZeroMQ echo, its scaling from 10k to 1M "
        "stations, the assistant path, and memory; prints a table and exits 1 if a target is missed."))
    parser.add_argument("--quick", action="store_true", help="short runs, sets real + 10k + 100k only (~3 min)")
    parser.add_argument("--no-fail", action="store_true", help="exit 0 even when a target is missed")
    parser.add_argument("--sets", help="comma-separated sets to run: real,10k,100k,1M (default: all; --quick: "
                                       "real,10k,100k)")
    parser.add_argument("--seconds", type=float, help="measured seconds per load run (default 5; --quick 2)")
    parser.add_argument("--rounds", type=int, help="passes over every comparison, best kept (default 2; --quick 1)")
    parser.add_argument("--pin", choices=("same", "cross", "none"), default="same",
                        help="runs at 1 in flight: server and load generator on the same core (default), "
                             "on two cores, or wherever the scheduler puts them")
    parser.add_argument("--scratch-path", help="swift build --scratch-path (default: .build)")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    parser.add_argument("--bin-dir", help="use the binaries in this directory (installed or copied ones; "
                                          "dialog-renderer's resources folder beside it) and build nothing")
    parser.add_argument("--redis-point", default=f"{DERBY[0]},{DERBY[1]}",
                        help="LAT,LNG of Redis's fixed GEOSEARCH point (default: Derby, a mid-sized town)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, SQLite) afterwards")
    options = parser.parse_args(argv)
    options.sets = (options.sets.split(",") if options.sets
                    else ["real", "10k", "100k"] + ([] if options.quick else ["1M"]))
    unknown = [name for name in options.sets if name != "real" and name not in GENERATED]
    if unknown:
        parser.error(f"unknown set(s): {', '.join(unknown)}")
    options.seconds = options.seconds or (2.0 if options.quick else 5.0)
    options.warmup = 0.5 if options.quick else 1.0
    options.rounds = max(1, options.rounds or (1 if options.quick else 2))
    # "full" only for the run the README reports: every set, the default seconds and rounds.
    full = sorted(options.sets) == sorted(["real", "10k", "100k", "1M"]) and options.seconds == 5.0 \
        and options.rounds == 2
    # "quick" only with the quick defaults; a quick run of other sets is "custom", as the README says.
    quick = options.quick and sorted(options.sets) == sorted(["real", "10k", "100k"]) \
        and options.seconds == 2.0 and options.rounds == 1
    options.mode = "quick" if quick else "full" if full else "custom"
    lat, _, lng = options.redis_point.partition(",")
    try:
        options.redis_point = (float(lat), float(lng))
    except ValueError:
        parser.error("--redis-point: expected LAT,LNG")
    options.radius = 5.0
    options.seed = 1
    options.load_timeout = 600
    return options


def build(options, work_dir):
    """Builds release; if the whole package does not build (someone's target in progress), builds
    each product the bench uses on its own. Returns the Binaries that were built."""
    base = ["swift", "build", "-c", "release"] + (["--scratch-path", options.scratch_path]
                                                  if options.scratch_path else [])
    optional = AssistantStack.NAMES
    if options.bin_dir:
        directory = os.path.abspath(options.bin_dir)
        found = [name for name in REQUIRED + optional if os.access(os.path.join(directory, name), os.X_OK)]
        missing = [name for name in REQUIRED if name not in found]
        if missing:
            say(f"--bin-dir {directory}: no {', '.join(missing)} there")
            raise SystemExit(2)
        return Binaries(directory, found)
    bin_dir = subprocess.run(base + ["--show-bin-path"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if options.no_build:
        return Binaries(bin_dir, REQUIRED + optional)
    log_path = os.path.join(work_dir, "build.log")
    say(f"building release ({' '.join(base)}); log {log_path}")
    with open(log_path, "ab") as log:
        def attempt(extra):
            return subprocess.run(base + extra, cwd=ROOT, stdout=log, stderr=log).returncode == 0
        if attempt([]):
            return Binaries(bin_dir, REQUIRED + optional)
        say("the full release build failed; building the bench's products one by one")
        built = [product for product in REQUIRED + optional if attempt(["--product", product])]
    missing = [product for product in REQUIRED if product not in built]
    if missing:
        say(f"cannot build {', '.join(missing)} (see {log_path})")
        raise SystemExit(2)
    return Binaries(bin_dir, built)


def data_sets(options, binaries):
    """(name, feeds directory) for each set, generating (and caching) the synthetic ones."""
    sets = []
    for name in options.sets:
        if name == "real":
            if os.path.isdir(REAL_FEEDS):
                sets.append(("real", os.path.normpath(REAL_FEEDS)))
            else:
                say(f"real feeds absent ({os.path.normpath(REAL_FEEDS)}): skipping the real set")
            continue
        count = GENERATED[name]
        directory = os.path.join(DATA_CACHE, f"stations-{count}-seed{options.seed}")
        if not os.path.isdir(directory):
            say(f"generating {count} stations into {directory}")
            partial = directory + ".partial"
            shutil.rmtree(partial, ignore_errors=True)
            subprocess.run([binaries.path("fuelboard"), "generate", "--stations", str(count), "--seed",
                            str(options.seed), "--no-quirks", "--out", partial], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.rename(partial, directory)
        sets.append((name, directory))
    return sets


def notes(options, router_reason):
    lat, lng = options.redis_point
    lines = [
        f"redis-benchmark cannot vary the point per request: every GEOSEARCH is at {lat},{lng} (a mid-sized "
        "town); fuel-lookup gets 20,000 points jittered around loaded stations (the row 'stations within r' "
        "compares the two densities).",
        "Redis does less work: GEOSEARCH BYRADIUS ASC COUNT 1 returns the nearest member, with no fuel filter, "
        "no price ordering, no station record and no JSON; fuel-lookup answers the cheapest B7 with the station.",
        "One 2-core machine: the load generator (fuelboard loadtest / redis-benchmark) shares the cores with the "
        "server under test; other work on the machine shows up in the figures (see the load average).",
        {"same": "Runs at 1 in flight (lookup, echo, Redis) put server and load generator on the same core: they "
                 "take turns, and this gives the stable floor (left to the scheduler, p50 flips between ~55 and "
                 "~110 µs on this VM as the two land on one core or two). Runs at 50 use both cores freely.",
         "cross": "Runs at 1 in flight (lookup, echo, Redis) put server and load generator on two different cores "
                  "(every request pays the cross-core wake-up). Runs at 50 use both cores freely.",
         "none": "Runs at 1 in flight are not pinned: p50 flips between ~55 and ~110 µs on this VM as server and "
                 "load generator land on one core or two, so the p50 ratio is noisy."}[options.pin],
        "Handling per lookup is fuel-lookup's own time per request (decode, index, encode) from sys.stats, "
        "without the network; 'lookup cost' compares it at 1M and 10k stations (1 in flight).",
        "Peak RSS is VmHWM after the set was loaded and measured (index builds during ingest included).",
        "CPU per request is each process's CPU time (all threads, from /proc) over the run at 50 in flight "
        "of the best round, divided by its replies; the load generator measures its own. With both cores busy, "
        "throughput goes as the inverse of the CPU a request takes all told, so 'if the router cost 0' (a "
        "lookup's CPU all told over an ask's without intent-router) is about the highest router / lookup ratio "
        "these backends and this load generator allow, whatever the router does.",
    ]
    if router_reason:
        lines.append(f"assistant path not measured: {router_reason}")
    return lines


def main(argv):
    options = parse_options(argv)
    from measure import measure_set  # pyzmq: only once the options are known (so --help needs nothing)
    from redisgeo import Redis
    install_cleanup()
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    work_dir = tempfile.mkdtemp(prefix="fuelboard-bench-")
    say(f"work directory {work_dir}; load average {load_before:.2f} on {os.cpu_count()} cores")
    if load_before > 0.5:
        say("the machine is not idle: figures will be noisy")
    binaries = build(options, work_dir)
    missing = [name for name in AssistantStack.NAMES if not binaries.has(name)]
    options.router = not missing
    options.router_skip_reason = f"{', '.join(missing)} not built" if missing else None
    if missing:
        say(f"SKIP the assistant path: {options.router_skip_reason}")
    sets = data_sets(options, binaries)
    redis = Redis(os.path.join(work_dir, "redis"))
    results, failed = [], False
    try:
        for name, feeds in sets:
            run_dir = os.path.join(work_dir, name)
            try:
                results.append(measure_set(name, feeds, run_dir, binaries, redis, options))
            except Exception as error:  # noqa: BLE001 - one set failing (a timeout, a crash) must not stop the rest
                failed = True
                say(f"[{name}] FAILED: {error}")
                results.append({"name": name, "feeds": feeds, "error": str(error).splitlines()[0]})
            for leftover in os.listdir(run_dir) if os.path.isdir(run_dir) else []:
                if ".sqlite" in leftover:
                    os.remove(os.path.join(run_dir, leftover))
    finally:
        redis.close()
        stop_all()
    verdicts = targets(results)
    load_after = os.getloadavg()[0]
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    header = (f"FuelBoard bench {when}: {options.mode} run ({', '.join(options.sets)}), {options.seconds:g} s per "
              f"load run, best of {options.rounds} round{'s' if options.rounds != 1 else ''}, {os.cpu_count()} cores, load average {load_before:.2f} before / {load_after:.2f} after, "
              f"took {time.monotonic() - started:.0f} s")
    print(table(results, verdicts, header, notes(options, options.router_skip_reason)))
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w") as handle:
        json.dump({"when": when, "mode": options.mode, "secondsPerRun": options.seconds,
                   "cores": os.cpu_count(), "loadAverage": [load_before, load_after], "pin": options.pin,
                   "rounds": options.rounds,
                   "redisPoint": list(options.redis_point), "radiusMiles": options.radius, "sets": results,
                   "targets": verdicts, "notes": notes(options, options.router_skip_reason)}, handle, indent=2)
    say(f"results written to {os.path.relpath(RESULTS, ROOT)}")
    if options.keep or failed:
        say(f"logs kept in {work_dir}")
    else:
        shutil.rmtree(work_dir, ignore_errors=True)
    missed = any(verdict["status"] == "MISS" for verdict in verdicts)
    return 1 if missed and not options.no_fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
