"""`fuelboard loadtest --json` as a function: one closed-loop run, its figures as a dict."""

import json

from procs import run, say


def loadtest(binaries, target, endpoint, concurrency, seconds, warmup, points_endpoint, seed=1,
             cpus=None, connections=1, echo=False):
    """Runs `fuelboard loadtest` against `endpoint` (`--lookup` or `--router`) over `connections`
    sockets; query points come from the snapshot served at `points_endpoint`; the generator runs
    on `cpus` when given. `echo`: the endpoint is zmq-echo, whose replies carry no results: the
    content check is off (`--no-check`), the envelopes are still checked.
    Returns throughput, latency percentiles (µs) and failures; raises when no JSON report came out."""
    flag = "--router" if target == "router" else "--lookup"
    argv = [binaries.path("fuelboard"), "loadtest", "--target", target, flag, endpoint,
            "--ingest", points_endpoint, "--points", "stations", "--seed", str(seed),
            "--concurrency", str(concurrency), "--connections", str(connections), "--duration", f"{seconds}s",
            "--warmup", f"{warmup}s", "--json"]
    if echo:
        argv.append("--no-check")
    if target == "router":
        argv.append("--keep-users")  # the bench's stack is thrown away; forgetting them would only take time
    progress = []
    status, out = run(argv, timeout=seconds + warmup + 120, what=f"loadtest {target} x{concurrency}",
                      stderr_sink=progress.append, cpus=cpus, expected=(0,))
    if "using uniform points" in "".join(progress):
        raise RuntimeError(f"loadtest {target}: got no station locations from {points_endpoint}")
    try:
        report = json.loads(out)
    except ValueError:
        raise RuntimeError(f"loadtest {target} at {concurrency} in flight printed no report (exit {status})")
    if not report.get("requests"):
        # Zero latencies would make ratios.
        raise RuntimeError(f"loadtest {target} at {concurrency} in flight got no measured reply (exit {status})")
    latency = report["latencyMicroseconds"]
    failures = sum(report.get("errorsByCode", {}).values()) + report.get("timeouts", 0) \
        + report.get("invalidReplies", 0)
    if failures:
        say(f"loadtest {target} x{concurrency}: {failures} failed requests "
            f"(errors {report.get('errorsByCode')}, invalid {report.get('invalidReplies')}, "
            f"timeouts {report.get('timeouts')})")
    return {"throughput": report["throughput"], "p50Micros": latency["p50"], "p90Micros": latency["p90"],
            "p99Micros": latency["p99"], "maxMicros": latency["max"], "requests": report["requests"],
            "failures": failures, "errorsByCode": report.get("errorsByCode", {}),
            "warmupRequests": report.get("warmupRequests", 0), "generatorCpuSeconds": report.get("generatorCpuSeconds")}
