"""The run's summary: what the clients saw, what each service counted, the verdict; as text or JSON."""

from .services import LOOKUPS, ROUTERS

ROUTER_DETAILS = ("asksByCode", "backendTimeouts", "backendUnavailable", "backendReconnects",
                  "backendLateReplies", "fallbackDialogs", "deadlineMisses")


def _count(stats, request_type):
    return (stats.get("requestsByType") or {}).get(request_type, 0)


def served(snapshots, service, request_type, until=None):
    """Requests of `request_type` a service answered during the load, summed over its lives:
    {"total", "byLife"}. Counters restart with each life; the "load start" snapshot is the baseline.
    `until` stops at the first snapshot with that label prefix (inclusive).
    """
    baseline = {}
    last = {}
    for snapshot in snapshots:
        life = snapshot["lives"].get(service)
        stats = snapshot["stats"].get(service)
        if life is not None and stats is not None:
            value = _count(stats, request_type)
            if snapshot["label"] == "load start":
                baseline[life] = value
            last[life] = max(last.get(life, 0), value)
        if until and snapshot["label"].startswith(until):
            break
    by_life = {life: value - baseline.get(life, 0) for life, value in sorted(last.items())}
    return {"total": sum(by_life.values()), "byLife": by_life}


def errors(snapshots, service):
    """Error replies a service sent during the load, by code, summed over its lives."""
    baseline = {}
    last = {}
    for snapshot in snapshots:
        life = snapshot["lives"].get(service)
        stats = snapshot["stats"].get(service)
        if life is None or stats is None:
            continue
        counts = stats.get("errorsByCode") or {}
        if snapshot["label"] == "load start":
            baseline[life] = counts
        last[life] = counts
    total = {}
    for life, counts in last.items():
        for code, value in counts.items():
            total[code] = total.get(code, 0) + value - baseline.get(life, {}).get(code, 0)
    return {code: value for code, value in total.items() if value}


def _first_fault_label(fault_log):
    for entry in fault_log:
        if entry["fault"].split(":")[1] in ("kill", "term", "pause"):
            return f"before {entry['fault']}"
    return None


def build_summary(lab, results, fault_log, setup, versions, converged_after):
    options = lab.options
    load = results.summary()
    snapshots = lab.snapshots
    end_stats = snapshots[-1]["stats"] if snapshots else {}
    first_fault = _first_fault_label(fault_log)
    routers = {}
    for name in ROUTERS:
        details = (end_stats.get(name) or {}).get("details") or {}
        routers[name] = {
            "answeredForClients": load["perRouter"][name].get("answered", 0),
            "asksServed": served(snapshots, name, "assistant.ask"),
            **{key: details.get(key) for key in ROUTER_DETAILS if key in details},
        }
    replicas = {}
    for name in LOOKUPS:
        replicas[name] = {
            "lookupsServed": served(snapshots, name, "lookup.cheapest"),
            "lookupsBeforeFirstFault": served(snapshots, name, "lookup.cheapest", first_fault)["total"]
            if first_fault else None,
            "errorReplies": errors(snapshots, name),
            "finalVersion": versions.get(name),
        }
    running = [versions[name] for name in LOOKUPS if versions.get(name) != "not running"]
    same_version = bool(running) and all(version == versions["ingest"] for version in running)
    failures = []
    if load["unanswered"]:
        failures.append(f"{load['unanswered']} asks unanswered")
    if load["badReplies"]:
        failures.append(f"{load['badReplies']} bad replies")
    failures += [f"fault {entry['fault']} not applied: {entry['detail']}" for entry in fault_log if not entry["ok"]]
    if len(fault_log) < len(options.fault_list):
        failures.append(f"only {len(fault_log)} of {len(options.fault_list)} faults applied")
    if not running:
        failures.append("no fuel-lookup replica running at the end: nothing shows the updates reached them")
    elif not same_version:
        failures.append(f"replicas not on price-ingest's version at the end: {versions}")
    if options.strict:
        degraded = load["answeredWithError"] + sum(n for code, n in load["answeredOkByCode"].items()
                                                   if code != "success")
        if degraded:
            failures.append(f"--strict: {degraded} answers were not ok with code success")
    return {
        "pass": not failures,
        "failures": failures,
        "options": {"duration": options.duration, "concurrency": options.concurrency, "rate": options.rate,
                    "users": options.users,
                    "faults": [str(fault) for fault in options.fault_list],
                    "attemptTimeout": options.attempt_timeout, "askDeadline": options.ask_deadline,
                    "bench": options.bench, "routerDeadline": options.router_deadline,
                    "stations": options.stations, "strict": options.strict},
        "namespacePrefix": options.prefix,
        "workDir": str(lab.work) if lab.keep else None,
        "setup": setup,
        "load": load,
        "faults": fault_log,
        "restarts": lab.actions.restarts,
        "routers": routers,
        "replicas": replicas,
        "versions": versions,
        "sameVersion": same_version,
        "convergedAfterSeconds": converged_after,
    }


def text(summary):
    """The summary for people."""
    load = summary["load"]
    latency = load["latencyMs"]
    ok_codes = ", ".join(f"{code} {n}" for code, n in sorted(load["answeredOkByCode"].items())) or "none"
    error_codes = ", ".join(f"{code} {n}" for code, n in sorted(load["answeredWithErrorByCode"].items()))
    lines = [
        f"scale-out across namespaces {summary['namespacePrefix']}-*: {summary['options']['duration']:g} s of load, "
        f"{summary['options']['concurrency']} clients, "
        f"{str(summary['options']['rate']) + ' asks/s' if summary['options']['rate'] else 'closed loop'}",
        f"asks: {load['asksSent']} sent, {load['answeredOk']} answered ok ({ok_codes}), "
        f"{load['answeredWithError']} answered with an error{' (' + error_codes + ')' if error_codes else ''}, "
        f"{load['unanswered']} unanswered, {load['badReplies']} bad replies; {load['retriedAsks']} needed a retry",
        f"latency: p50 {latency['p50']} ms, p90 {latency['p90']} ms, p99 {latency['p99']} ms, "
        f"max {latency['max']} ms; {load['asksPerSecond']} asks/s",
    ]
    for name, router in summary["routers"].items():
        client_view = load["perRouter"][name]
        lines.append(f"{name}: answered {router['answeredForClients']} asks for the clients "
                     f"(tries {client_view.get('attempts', 0)}, timed out {client_view.get('timeouts', 0)}, "
                     f"refused {client_view.get('refused', 0)}); its sys.stats: {router['asksServed']['total']} "
                     f"asks, backend timeouts {router.get('backendTimeouts')}, "
                     f"unavailable {router.get('backendUnavailable')}")
    for name, replica in summary["replicas"].items():
        lives = ", ".join(f"life {life}: {n}" for life, n in replica["lookupsServed"]["byLife"].items())
        before = replica["lookupsBeforeFirstFault"]
        lines.append(f"{name}: {replica['lookupsServed']['total']} lookups ({lives})"
                     f"{'' if before is None else f', {before} before the first fault'}; "
                     f"error replies {replica['errorReplies'] or 'none'}; "
                     f"final version {replica['finalVersion']}")
    lines.append(f"versions: {summary['versions']}: {'same' if summary['sameVersion'] else 'DIFFERENT'}"
                 f" (converged {summary['convergedAfterSeconds']} s after the load)")
    for entry in summary["faults"]:
        lines.append(f"fault {entry['fault']:<22} at {entry['at']:6.3f} s: {'' if entry['ok'] else 'FAILED '}"
                     f"{entry['detail']}")
    for restart in summary["restarts"]:
        line = f"restart of {restart['process']} at {restart['startedAt']} s: listening after " \
               f"{restart.get('listeningAfter')} s"
        if "snapshotFetchedAfter" in restart or restart["process"].startswith("lookup"):
            line += f", snapshot fetched after {restart.get('snapshotFetchedAfter')} s, serving its index after " \
                    f"{restart.get('servingAfter')} s"
        lines.append(line)
    for what, entry in list(load["notSuccess"].items())[:8]:
        lines.append(f"not success: {entry['count']} x {what!r} ({entry['first']}-{entry['last']} s, "
                     f"{entry['routers']})")
    for t, tries, user in load["unansweredAsks"][:10]:
        lines.append(f"unanswered: ask first sent at {t} s by {user}, {tries} tries")
    for example in load["badReplyExamples"]:
        lines.append(f"bad reply: {example}")
    if summary["workDir"]:
        lines.append(f"logs: {summary['workDir']}/logs")
    lines.append("PASS" if summary["pass"] else "FAIL: " + "; ".join(summary["failures"]))
    return "\n".join(lines)
