"""Targets judged on the measured figures, the side-by-side table, and its JSON form."""

GIB_KIB = 1024 * 1024
BIG, SMALL = "1M", "10k"


def _get(data, *path):
    for key in path:
        if not isinstance(data, dict) or data.get(key) is None:
            return None
        data = data[key]
    return data


def _ratio(top, bottom):
    return None if top is None or not bottom else top / bottom


def targets(sets):
    """Every target, per set where it is per set: name, set, value, limit, PASS/MISS/SKIP, note."""
    rows = []

    def add(target, where, value, passed, limit, note=""):
        status = "SKIP" if value is None else ("PASS" if passed(value) else "MISS")
        rows.append({"target": target, "set": where, "value": value, "limit": limit, "status": status, "note": note})

    for entry in sets:
        where = entry["name"]
        if entry.get("error"):
            rows.append({"target": "set measured", "set": where, "value": None, "limit": None, "status": "MISS",
                         "note": entry["error"]})
            continue
        add("lookups/s at 50 in flight / Redis GEOSEARCH/s", where,
            _ratio(_get(entry, "lookup", "c50", "throughput"), _get(entry, "redis", "c50", "throughput")),
            lambda value: value >= 1.0, ">= 1.0")
        add("lookup p50 at 1 in flight / bare zmq echo p50", where,
            _ratio(_get(entry, "lookup", "c1", "p50Micros"), _get(entry, "echo", "c1", "p50Micros")),
            lambda value: value <= 1.2, "<= 1.2")
        skipped = _get(entry, "router", "skipped")
        add("router asks/s at 50 / lookups/s at 50", where,
            _ratio(_get(entry, "router", "c50", "throughput"), _get(entry, "lookup", "c50", "throughput")),
            lambda value: value >= 1 / 3, ">= 0.333", skipped or "")
        router_p99 = _get(entry, "router", "c50", "p99Micros")
        add("router p99 at 50 in flight (ms)", where, None if router_p99 is None else router_p99 / 1000,
            lambda value: value < 10, "< 10", skipped or "")
    by_name = {entry["name"]: entry for entry in sets}
    big, small = by_name.get(BIG, {}), by_name.get(SMALL, {})
    add("lookup cost at 1M / at 10k (handling µs per lookup)", "1M/10k",
        _ratio(_get(big, "serverMicros", "c1"), _get(small, "serverMicros", "c1")), lambda value: value <= 2.0,
        "<= 2.0", "" if BIG in by_name else "1M set not run")
    peak = _get(big, "memoryKiB", "fuel-lookup", "peak")
    add("fuel-lookup peak RSS with 1M stations (GiB)", "1M", None if peak is None else peak / GIB_KIB,
        lambda value: value < 1.0, "< 1.0", "" if BIG in by_name else "1M set not run")
    return rows


def _number(value, scale=1.0, digits=0):
    if value is None:
        return "-"
    return f"{value / scale:,.{digits}f}"


def table(sets, target_rows, header, notes):
    """The text table: one column per set, figures and ratios, then the verdict per target."""
    names = [entry["name"] for entry in sets]

    def row(label, pick, scale=1.0, digits=0, ratio=None):
        cells = []
        for entry in sets:
            if pick == ():  # a heading for the rows below it
                cells.append("")
            elif ratio:
                value = _ratio(_get(entry, *ratio[0]), _get(entry, *ratio[1]))
                cells.append("-" if value is None else f"{value:.3f}x")
            else:
                cells.append(_number(_get(entry, *pick), scale, digits))
        return [label] + cells

    rows = [
        ["", *names],
        row("stations with a usable location", ("stations",)),
        row("ingest, then index swapped (s)", ("readySeconds",), digits=1),
        row("fuel-lookup lookups/s @1", ("lookup", "c1", "throughput")),
        row("Redis GEOSEARCH/s @1", ("redis", "c1", "throughput")),
        row("  lookup / Redis @1", None, ratio=(("lookup", "c1", "throughput"), ("redis", "c1", "throughput"))),
        row("fuel-lookup lookups/s @50", ("lookup", "c50", "throughput")),
        row("Redis GEOSEARCH/s @50", ("redis", "c50", "throughput")),
        row("  lookup / Redis @50 (>= 1.0)", None,
            ratio=(("lookup", "c50", "throughput"), ("redis", "c50", "throughput"))),
        row("same shape, 50 connections x 1 in flight:", ()),
        row("  fuel-lookup lookups/s (--connections 50)", ("lookup", "c50x50", "throughput")),
        row("  lookup / Redis", None, ratio=(("lookup", "c50x50", "throughput"), ("redis", "c50", "throughput"))),
        row("  CPU/request (µs): fuel-lookup", ("lookup", "c50x50", "cpuMicros", "fuel-lookup"), digits=1),
        row("    redis-server", ("redis", "c50", "cpuMicros", "redis-server"), digits=1),
        row("    fuelboard loadtest", ("lookup", "c50x50", "cpuMicros", "load generator"), digits=1),
        row("    redis-benchmark", ("redis", "c50", "cpuMicros", "load generator"), digits=1),
        row("same shape, 1 connection x 50 in flight:", ()),
        row("  Redis GEOSEARCH/s (-c 1 -P 50)", ("redis", "c50p", "throughput")),
        row("  lookup / Redis", None, ratio=(("lookup", "c50", "throughput"), ("redis", "c50p", "throughput"))),
        row("  CPU/request (µs): fuel-lookup", ("lookup", "c50", "cpuMicros", "fuel-lookup"), digits=1),
        row("    redis-server", ("redis", "c50p", "cpuMicros", "redis-server"), digits=1),
        row("    fuelboard loadtest", ("lookup", "c50", "cpuMicros", "load generator"), digits=1),
        row("    redis-benchmark", ("redis", "c50p", "cpuMicros", "load generator"), digits=1),
        row("fuel-lookup p50 @1 (µs)", ("lookup", "c1", "p50Micros")),
        row("bare zmq-echo p50 @1 (µs)", ("echo", "c1", "p50Micros")),
        row("  echo reply size (bytes)", ("echo", "replyBytes")),
        row("  lookup / echo p50 (<= 1.2)", None,
            ratio=(("lookup", "c1", "p50Micros"), ("echo", "c1", "p50Micros"))),
        row("  on two cores: lookup / echo p50 @1", None,
            ratio=(("lookup", "c1cross", "p50Micros"), ("echo", "c1cross", "p50Micros"))),
        row("Redis p50 @1 (µs)", ("redis", "c1", "p50Micros")),
        row("fuel-lookup p99 @50 (ms)", ("lookup", "c50", "p99Micros"), 1000, 2),
        row("handling per lookup @1 (µs)", ("serverMicros", "c1"), digits=1),
        row("handling per lookup @50 (µs)", ("serverMicros", "c50"), digits=1),
        row("router asks/s @50", ("router", "c50", "throughput")),
        row("  router / lookup @50 (>= 0.33)", None,
            ratio=(("router", "c50", "throughput"), ("lookup", "c50", "throughput"))),
        row("router p99 @50 (ms, < 10)", ("router", "c50", "p99Micros"), 1000, 2),
        row("CPU per ask @50 (µs): intent-router", ("router", "c50", "cpuMicros", "intent-router"), digits=1),
        *[row(f"  {name}", ("router", "c50", "cpuMicros", name), digits=1)
          for name in ("location-cache", "fuel-lookup", "dialog-renderer", "load generator")],
        row("  router / lookup @50 if the router cost 0", ("freeRouterBound",), digits=3),
        row("stations within r of Redis's point", ("redis", "stationsAtPoint")),
        row("  ... of our query points (median)", ("redis", "stationsAtOurPoints", "median")),
    ]
    services = sorted({service for entry in sets for service in (entry.get("memoryKiB") or {})})
    for service in services:
        rows.append(row(f"peak RSS {service} (MiB)", ("memoryKiB", service, "peak"), 1024))
    if "fuel-lookup" in services:
        rows.append(row("  fuel-lookup RSS at the end (MiB)", ("memoryKiB", "fuel-lookup", "current"), 1024))
    widths = [max(len(str(line[column])) for line in rows) for column in range(len(rows[0]))]
    lines = [header, ""]
    for line in rows:
        lines.append("  ".join([line[0].ljust(widths[0])] + [cell.rjust(widths[i + 1])
                                                           for i, cell in enumerate(line[1:])]).rstrip())
    lines += ["", "targets:"]
    for target in target_rows:
        value = target["value"]
        shown = "-" if value is None else f"{value:.3f}"
        note = f"  ({target['note']})" if target["note"] else ""
        lines.append(f"  {target['status']:<4}  {target['set']:<6}  {target['target']}: {shown} "
                     f"(target {target['limit']}){note}")
    misses = sum(1 for target in target_rows if target["status"] == "MISS")
    skips = sum(1 for target in target_rows if target["status"] == "SKIP")
    lines.append(f"  {len(target_rows) - misses - skips} passed, {misses} missed, {skips} not measured")
    lines += [""] + [f"note: {note}" for note in notes]
    return "\n".join(lines)
