"""Everything measured on one data set: our lookup, the bare echo, Redis and the assistant path."""

import os
import time

import wire
from loadtest import loadtest
from procs import Service, cpu_seconds, pinned, say
from redisgeo import density
from stack import AssistantStack, LookupStack


def measure_set(name, feeds_dir, run_dir, binaries, redis, options):
    """Loads `feeds_dir` into a fresh price-ingest + fuel-lookup and measures it; returns a dict."""
    os.makedirs(run_dir, exist_ok=True)
    result = {"name": name, "feeds": feeds_dir}
    say(f"[{name}] starting price-ingest and fuel-lookup")
    stack = LookupStack(binaries, run_dir)
    echo = assistant = sampler = None
    try:
        say(f"[{name}] ingesting {feeds_dir}")
        ingested, ready, version = stack.load(feeds_dir, timeout=options.load_timeout)
        result.update(ingestSeconds=round(ingested, 1), readySeconds=round(ready, 1), version=version)
        say(f"[{name}] ingested in {ingested:.1f} s, index of version {version} swapped in after {ready:.1f} s")

        snapshot_version, updated, stations = wire.located_stations(stack.ingest_endpoint)
        result["stations"] = len(stations)
        if not stations:
            raise RuntimeError("no station with a usable location was loaded")
        sampler = wire.SnapshotSampler(snapshot_version, updated, stations)
        probes = wire.query_points(stations, 100, seed=options.seed)
        reply_bytes = wire.typical_reply_bytes(stack.lookup_endpoint, probes, radius=options.radius)
        say(f"[{name}] {len(stations)} located stations; query points from a sample of {sampler.count}; "
            f"typical lookup reply {reply_bytes} bytes")
        result["redis"] = load_redis(name, redis, stations, probes, options)
        del stations

        echo = Service("zmq-echo", [binaries.path("zmq-echo"), "--reply-bytes", str(reply_bytes)],
                       os.path.join(run_dir, "zmq-echo.log"))
        targets = {"lookup": stack.lookup_endpoint, "lookup_pid": stack.lookup.pid, "echo": echo.endpoint(),
                   "echo_pid": echo.pid, "points": sampler.endpoint}
        if options.router:
            assistant = AssistantStack()
            targets["router"] = start_assistant(name, assistant, run_dir, binaries, stack.lookup_endpoint)
            if not targets["router"]:
                result["router"] = {"skipped": "the assistant path did not start (see the progress lines)"}
            targets["router_pids"] = {"fuel-lookup": stack.lookup.pid,
                                      **{service.name: service.pid for service in assistant.services()}}
        else:
            result["router"] = {"skipped": options.router_skip_reason}

        rounds = [one_round(name, number, targets, redis, binaries, options) for number in range(options.rounds)]
        combine(result, rounds, reply_bytes)
        result["memoryKiB"] = memory(stack.services() + (assistant.services() if assistant else []))
    finally:
        if assistant:
            assistant.stop()
        if echo:
            echo.stop()
        if sampler:
            sampler.close()
        for service in reversed(stack.services()):
            service.stop()
    return result


def one_round(name, number, targets, redis, binaries, options):
    """One pass over every comparison, each pair back to back (lookup at 1 and the echo; Redis at
    50, lookup at 50 and the router), so background load that drifts skews both sides alike. The
    runs at 1 in flight pin server and generator (`--pin`); the runs at 50 use both cores freely.

    At 50 in flight the judged pair is fuel-lookup over one connection (ZeroMQ pipelines, as
    intent-router does) against redis-benchmark's 50 clients. Two pairs of the same shape go with it,
    for comparison: 50 connections each (`--connections 50`), and one connection each (Redis
    pipelining 50), with each side's CPU per request."""
    tag = f"[{name}] round {number + 1}/{options.rounds}:"
    figures = {}

    def drive(key, target, endpoint, concurrency, server_pid=None, pin=options.pin, cpu_of=None, connections=1):
        echo = endpoint == targets["echo"]
        before = wire.service_latency(targets["lookup"]) if key.startswith("lookup") else None
        cpu_before = {name: cpu_seconds(pid) for name, pid in (cpu_of or {}).items()}
        with pinned([server_pid] if server_pid else [], pin) as cpus:
            run = loadtest(binaries, target, endpoint, concurrency, options.seconds, options.warmup,
                           targets["points"], seed=options.seed, cpus=cpus, connections=connections,
                           echo=echo)
        if before:
            run["handlingMicros"] = wire.mean_between(before, wire.service_latency(targets["lookup"]))
        if cpu_of:
            run["cpuMicros"] = cpu_per_request(run, cpu_before, {name: cpu_seconds(pid) for name, pid in cpu_of.items()})
        figures[key] = run
        handling = f", {run['handlingMicros']:.1f} µs handling" if run.get("handlingMicros") else ""
        say(f"{tag} {key}: {run['throughput']:.0f}/s, p50 {run['p50Micros']:.0f} µs, "
            f"p99 {run['p99Micros']:.0f} µs{handling}")

    drive("lookup@1", "lookup", targets["lookup"], 1, server_pid=targets["lookup_pid"])
    drive("echo@1", "lookup", targets["echo"], 1, server_pid=targets["echo_pid"])
    if options.pin == "same":
        # For comparison only: the same pair with server and generator on two cores, where each
        # request also pays two cross-core wake-ups.
        drive("lookup@1x", "lookup", targets["lookup"], 1, server_pid=targets["lookup_pid"], pin="cross")
        drive("echo@1x", "lookup", targets["echo"], 1, server_pid=targets["echo_pid"], pin="cross")
    def drive_redis(key, clients, pipeline=1):
        with pinned([redis.server.pid] if clients * pipeline == 1 else [], options.pin) as cpus:
            run = redis.benchmark(options.redis_point, options.radius, clients, options.seconds, cpus=cpus,
                                  pipeline=pipeline)
        figures[key] = run
        say(f"{tag} {key}: {run['throughput']:.0f}/s, p50 {run['p50Micros']:.0f} µs")

    lookup_cpu = {"fuel-lookup": targets["lookup_pid"]}
    drive_redis("redis@1", 1)
    drive("lookup@50x50", "lookup", targets["lookup"], 50, cpu_of=lookup_cpu, connections=50)
    drive_redis("redis@50", 50)
    drive("lookup@50", "lookup", targets["lookup"], 50, cpu_of=lookup_cpu)
    drive_redis("redis@50p", 1, pipeline=50)
    if targets.get("router"):
        try:
            drive("router@50", "router", targets["router"], 50, cpu_of=targets["router_pids"])
        except RuntimeError as error:
            say(f"{tag} router@50 gave no report: {error}")
    return figures


def cpu_per_request(run, before, after):
    """Each service's CPU time per request over a load run (µs), and the load generator's own.

    A service's reading spans the whole run, warm-up included, so it is divided by every reply,
    warm-up ones too; the generator measures itself over the measured part only."""
    replies = run["requests"] + run.get("warmupRequests", 0)
    per_request = {}
    for name, start in before.items():
        end = after.get(name)
        if start is not None and end is not None and replies:
            per_request[name] = round((end - start) * 1e6 / replies, 2)
    if run.get("generatorCpuSeconds") is not None and run["requests"]:
        per_request["load generator"] = round(run["generatorCpuSeconds"] * 1e6 / run["requests"], 2)
    return per_request


def free_router_bound(lookup_cpu, ask_cpu):
    """The router / lookup throughput ratio if intent-router cost nothing: a lookup's CPU all told
    (fuel-lookup and its generator) over an ask's without the router's. With every core busy in
    both runs, throughput is the inverse of CPU per request, so no router can take the ratio above."""
    if not lookup_cpu or not ask_cpu or "intent-router" not in ask_cpu:
        return None
    rest = sum(value for name, value in ask_cpu.items() if name != "intent-router")
    return round(sum(lookup_cpu.values()) / rest, 3) if rest else None


def combine(result, rounds, reply_bytes):
    """The best of the rounds for each figure (highest throughput; for the latency pair at 1 in
    flight, lowest p50), with every round kept in `rounds`."""
    def best(key, by="throughput"):
        runs = [figures[key] for figures in rounds if key in figures]
        if not runs:
            return None
        return min(runs, key=lambda run: run["p50Micros"]) if by == "p50" else max(runs, key=lambda run: run[by])

    result["lookup"] = {"c1": best("lookup@1", by="p50"), "c50": best("lookup@50"),
                        "c50x50": best("lookup@50x50"), "c1cross": best("lookup@1x", by="p50")}
    result["echo"] = {"replyBytes": reply_bytes, "c1": best("echo@1", by="p50"), "c1cross": best("echo@1x", by="p50")}
    result["redis"].update(c1=best("redis@1"), c50=best("redis@50"), c50p=best("redis@50p"))
    if best("router@50"):
        result["router"] = {"c50": best("router@50")}
        result["freeRouterBound"] = free_router_bound(result["lookup"]["c50"].get("cpuMicros"),
                                                      result["router"]["c50"].get("cpuMicros"))
    result["serverMicros"] = {}
    for concurrency in (1, 50):
        handling = [figures[f"lookup@{concurrency}"].get("handlingMicros") for figures in rounds]
        result["serverMicros"][f"c{concurrency}"] = min((value for value in handling if value), default=None)
    result["rounds"] = rounds


def load_redis(name, redis, stations, probes, options):
    """The same stations into Redis, and how many lie around its fixed point and around ours."""
    started = time.monotonic()
    held = redis.load(stations)
    point = options.redis_point
    at_point = redis.within([point], options.radius)[0]
    our_density = density(redis.within(probes, options.radius))
    say(f"[{name}] Redis holds {held} stations (GEOADD in {time.monotonic() - started:.1f} s); "
        f"{at_point} within {options.radius:g} mi of its fixed point, median {our_density['median']:.0f} "
        f"around our query points")
    return {"stations": held, "point": list(point), "stationsAtPoint": at_point, "stationsAtOurPoints": our_density}


def start_assistant(name, assistant, run_dir, binaries, lookup_endpoint):
    """Starts location-cache, dialog-renderer and intent-router; the router's endpoint, or None."""
    try:
        assistant.start(binaries, run_dir, lookup_endpoint)
        return assistant.router_endpoint
    except RuntimeError as error:
        say(f"[{name}] SKIP the assistant path: it did not start: {str(error).splitlines()[0]}")
        assistant.stop()
        return None


def memory(services):
    """Peak (VmHWM) and current (VmRSS) resident memory of each service, in KiB."""
    readings = {}
    for service in services:
        peak, current = service.memory_kib()
        if peak is not None:
            readings[service.name] = {"peak": peak, "current": current}
    return readings
