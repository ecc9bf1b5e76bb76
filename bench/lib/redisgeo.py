"""Redis as the reference: a throwaway redis-server on loopback (no persistence), stations loaded
with GEOADD over a raw RESP connection, and GEOSEARCH driven by redis-benchmark."""

import csv
import io
import os
import socket
import statistics

from procs import Service, children_cpu_seconds, cpu_seconds, run, say

KEY = "stations"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _encode(*parts):
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class Redis:
    """A redis-server of our own and a minimal pipelining RESP client to it."""

    def __init__(self, work_dir):
        os.makedirs(work_dir, exist_ok=True)
        # redis-server takes a port number, not 0: a free one is picked, and another tried when
        # something took it between the pick and redis binding it.
        for attempt in range(3):
            self.port = free_port()
            self.server = Service("redis-server", ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                                   "--save", "", "--appendonly", "no", "--dir", work_dir,
                                                   "--protected-mode", "no"], os.path.join(work_dir, "redis.log"))
            try:
                self.server.wait_for(r"Ready to accept connections", 20, "'Ready to accept connections'")
                break
            except RuntimeError:
                if self.server.running() or attempt == 2:
                    raise
        self.connection = socket.create_connection(("127.0.0.1", self.port))
        self.reader = self.connection.makefile("rb")

    def _reply(self):
        line = self.reader.readline()
        kind, rest = line[:1], line[1:-2]
        if kind in (b"+", b":"):
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(f"redis: {rest.decode()}")
        if kind == b"$":
            size = int(rest)
            return None if size < 0 else self.reader.read(size + 2)[:-2].decode()
        if kind == b"*":
            size = int(rest)
            return None if size < 0 else [self._reply() for _ in range(size)]
        raise RuntimeError(f"redis: unexpected reply {line!r}")

    def pipeline(self, commands):
        """Sends every command, then reads every reply (in chunks, so buffers stay small)."""
        replies = []
        for start in range(0, len(commands), 500):
            chunk = commands[start:start + 500]
            self.connection.sendall(b"".join(_encode(*command) for command in chunk))
            replies += [self._reply() for _ in chunk]
        return replies

    def load(self, stations):
        """Replaces the key with the stations' locations; returns how many Redis holds."""
        self.pipeline([("DEL", KEY)])
        commands, batch = [], []
        for station in stations:
            location = station["location"]
            batch += [location["lng"], location["lat"], station["id"]]
            if len(batch) >= 3000:
                commands.append(("GEOADD", KEY, *batch))
                batch = []
        if batch:
            commands.append(("GEOADD", KEY, *batch))
        self.pipeline(commands)
        return int(self.pipeline([("ZCARD", KEY)])[0])

    def within(self, points, radius_miles):
        """How many stations lie within the radius of each point."""
        replies = self.pipeline([("GEOSEARCH", KEY, "FROMLONLAT", lng, lat, "BYRADIUS", radius_miles, "mi")
                                 for lat, lng in points])
        return [len(reply or []) for reply in replies]

    def benchmark(self, point, radius_miles, clients, seconds, cpus=None, pipeline=1):
        """redis-benchmark of `GEOSEARCH ... BYRADIUS r mi ASC COUNT 1` at a fixed point with
        `clients` connections, each keeping `pipeline` requests in flight (redis-benchmark on `cpus`
        when given): a short probe sizes the run to about `seconds`. Also gives the CPU time per
        request of redis-server and of redis-benchmark (µs)."""
        lat, lng = point
        command = ["GEOSEARCH", KEY, "FROMLONLAT", str(lng), str(lat), "BYRADIUS", str(radius_miles), "mi",
                   "ASC", "COUNT", "1"]

        def once(requests):
            server_before, client_before = cpu_seconds(self.server.pid), children_cpu_seconds()
            status, out = run(["redis-benchmark", "-h", "127.0.0.1", "-p", str(self.port), "-c", str(clients),
                               "-P", str(pipeline), "-n", str(requests), "--csv", *command],
                              timeout=max(120, seconds * 10), what="redis-benchmark", cpus=cpus)
            server_after, client_after = cpu_seconds(self.server.pid), children_cpu_seconds()
            rows = [row for row in csv.reader(io.StringIO(out)) if row and row[0] != "test"]
            if status != 0 or not rows:
                raise RuntimeError(f"redis-benchmark gave no result (exit {status}): {out[-300:]}")
            row = rows[-1]
            cpu = {"load generator": round((client_after - client_before) * 1e6 / requests, 2)}
            if server_before is not None and server_after is not None:
                cpu["redis-server"] = round((server_after - server_before) * 1e6 / requests, 2)
            return {"throughput": float(row[1]), "p50Micros": float(row[4]) * 1000,
                    "p99Micros": float(row[6]) * 1000, "requests": requests, "cpuMicros": cpu}

        probe = once(max(200, clients * pipeline * 20))
        requests = int(min(max(probe["throughput"] * seconds, clients * 50), 2_000_000))
        return once(requests)

    def close(self):
        try:
            self.connection.close()
        finally:
            self.server.stop()


def density(counts):
    """Median and 10th/90th percentiles of station counts, for the report."""
    if not counts:
        return None
    ordered = sorted(counts)
    return {"p10": ordered[len(ordered) // 10], "median": statistics.median(ordered),
            "p90": ordered[(len(ordered) * 9) // 10]}
