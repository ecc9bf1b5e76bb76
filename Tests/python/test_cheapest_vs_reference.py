"""lookup.cheapest on the real feeds, compared with an independent computation (reference_model).

For seeded random points (near real stations and uniform in the UK box) x fuels x radii x
limits, the answer must be the true cheapest valid stations within the radius. Only stations
within EDGE miles of the radius may be in or out either way.
"""

import json
import random
import re
from collections import defaultdict

import pytest

from conftest import REAL_DATA, needs_real_data
from reference_model import FUELS, Model, haversine_miles, in_uk_box, stations_of_feed

RADII = (1, 3, 5, 10, 25)
LIMITS = (1, 5)
EDGE = 0.001          # miles: stations this close to the radius may fall either side
DISTANCE_TOL = 0.01   # miles: the reply rounds distances
COORD_TOL = 1e-5      # degrees
UK_BOX = ((49.8, 61.0), (-8.7, 1.9))
MAX_LISTED = 25

SNAPSHOTS = ("uk-cma-snapshot-2025-10-09", "uk-cma-snapshot-2026-04-10")
_CAPTURE_NAME = re.compile(r"^uk-cma-(?P<retailer>[a-z][a-z-]*?)-(?P<date>\d{4}-\d{2}-\d{2})(?:-raw)?\.json$")

pytestmark = [needs_real_data]


def load_json(path):
    with open(path, "rb") as handle:
        return json.loads(handle.read())


def snapshot_feeds(folder):
    """[(retailer, path)] for one snapshot folder: one retailer per file name."""
    return [(path.stem, path) for path in sorted((REAL_DATA / folder).glob("*.json"))]


def capture_rounds():
    """The single captures in rounds: round i holds each retailer's i-th capture by date."""
    per_retailer = defaultdict(list)
    for path in sorted(REAL_DATA.glob("uk-cma-*.json")):
        match = _CAPTURE_NAME.match(path.name)
        if match:
            per_retailer[match["retailer"]].append((match["date"], path.name, path))
    rounds = []
    for retailer, captures in sorted(per_retailer.items()):
        for index, (_date, _name, path) in enumerate(sorted(captures)):
            while len(rounds) <= index:
                rounds.append([])
            rounds[index].append((retailer, path))
    return rounds


def query_points(rng, stations, near_count, uniform_count):
    """Points close to (or exactly at) real stations, then uniform points in the UK box."""
    points = []
    for _ in range(near_count if stations else 0):
        station = rng.choice(stations)
        kind = rng.random()
        if kind < 0.15:
            points.append((station.lat, station.lng))
        else:
            spread = 0.02 if kind < 0.6 else 0.25
            points.append((station.lat + rng.gauss(0, spread), station.lng + rng.gauss(0, spread * 1.6)))
    for _ in range(uniform_count):
        points.append((rng.uniform(*UK_BOX[0]), rng.uniform(*UK_BOX[1])))
    return [(round(lat, 6), round(lng, 6)) for lat, lng in points]


def check_result_shape(result, fuel, lat, lng, problems, where):
    station = result.get("station") or {}
    for key in ("id", "retailer", "brand", "name", "address", "postcode", "lat", "lng"):
        if key not in station:
            problems.append(f"{where}: station lacks {key!r}: {station}")
    for key in ("pricePence", "distanceMiles", "updated"):
        if key not in result:
            problems.append(f"{where}: result lacks {key!r}")
    price = result.get("pricePence")
    if not isinstance(price, (int, float)) or not (80 <= price < 300):
        problems.append(f"{where}: sentinel or out-of-range price {price!r} at {station.get('id')}")
    elif abs(price * 10 - round(price * 10)) > 1e-6:
        problems.append(f"{where}: price {price!r} has more than one decimal")
    s_lat, s_lng = station.get("lat"), station.get("lng")
    if not isinstance(s_lat, (int, float)) or not isinstance(s_lng, (int, float)) or not in_uk_box(s_lat, s_lng):
        problems.append(f"{where}: unusable coordinates {s_lat!r},{s_lng!r} at {station.get('id')}")
    elif isinstance(result.get("distanceMiles"), (int, float)):
        own = haversine_miles(lat, lng, s_lat, s_lng)
        if abs(own - result["distanceMiles"]) > DISTANCE_TOL:
            problems.append(f"{where}: distanceMiles {result['distanceMiles']} but the station's own "
                            f"coordinates are {own:.4f} mi away ({station.get('id')})")
    if "fuel" in result and result["fuel"] != fuel:
        problems.append(f"{where}: result fuel {result['fuel']!r} != {fuel}")
    station_id = station.get("id", "")
    if isinstance(station_id, str) and station.get("retailer") != station_id.split("/", 1)[0]:
        problems.append(f"{where}: id {station_id!r} does not start with retailer {station.get('retailer')!r}")


def compare(model_by_id, distances, fuel, radius, limit, lat, lng, reply, problems):
    """Compares one lookup.cheapest reply with the model; appends readable problems."""
    where = f"{fuel} r={radius} limit={limit} at {lat},{lng}"
    if reply.get("ok") is not True:
        problems.append(f"{where}: error reply {reply.get('error')}")
        return
    results = reply["body"].get("results")
    if not isinstance(results, list):
        problems.append(f"{where}: no results list")
        return
    loose = sorted(((s.prices[fuel], d, s) for s, d in distances if d <= radius + EDGE and fuel in s.prices),
                   key=lambda item: (item[0], item[1]))
    strict = [item for item in loose if item[1] <= radius - EDGE]
    if len(results) > limit:
        problems.append(f"{where}: {len(results)} results for limit {limit}")
    if not (min(limit, len(strict)) <= len(results) <= min(limit, len(loose))):
        best = f"{strict[0][2].id} {strict[0][0]}p {strict[0][1]:.3f}mi" if strict else "-"
        problems.append(f"{where}: {len(results)} results, model expects "
                        f"{min(limit, len(strict))}..{min(limit, len(loose))} (model cheapest {best})")
    matched = []
    seen_ids = set()
    for rank, result in enumerate(results):
        check_result_shape(result, fuel, lat, lng, problems, where)
        station = result.get("station") or {}
        sid = station.get("id")
        if sid in seen_ids:
            problems.append(f"{where}: station {sid} returned twice")
        seen_ids.add(sid)
        base = str(sid).split("#", 1)[0]
        options = [model_by_id[key] for key in (base, *(f"{base}#{n}" for n in range(2, 10))) if key in model_by_id]
        hit = None
        for option in options:
            distance = dict_distance(distances, option)
            if (fuel in option.prices and abs(option.prices[fuel] - result.get("pricePence", -1)) < 1e-6
                    and distance is not None and abs(distance - result.get("distanceMiles", -1)) <= DISTANCE_TOL):
                hit = (option, distance)
                break
        if hit is None:
            described = [(o.id, o.prices.get(fuel), dict_distance(distances, o)) for o in options]
            problems.append(f"{where}: result #{rank} {sid} at {result.get('pricePence')}p "
                            f"{result.get('distanceMiles')}mi is not a model station at that price and "
                            f"distance (model has {described or 'no such station'})")
            continue
        option, distance = hit
        if distance > radius + EDGE:
            problems.append(f"{where}: {sid} is {distance:.4f} mi away, outside the radius")
        if abs(station.get("lat", 0) - option.lat) > COORD_TOL or abs(station.get("lng", 0) - option.lng) > COORD_TOL:
            problems.append(f"{where}: {sid} coordinates {station.get('lat')},{station.get('lng')} "
                            f"differ from the feed's {option.lat},{option.lng}")
        matched.append((result["pricePence"], result["distanceMiles"], option))
    for (p1, d1, s1), (p2, d2, s2) in zip(matched, matched[1:]):
        if p2 < p1 - 1e-9 or (abs(p2 - p1) < 1e-9 and d2 < d1 - DISTANCE_TOL):
            problems.append(f"{where}: not cheapest-first/ties-by-distance: {s1.id} {p1}p {d1}mi "
                            f"before {s2.id} {p2}p {d2}mi")
    returned = {s.id for _, _, s in matched}
    if matched and len(matched) == len(results):
        last_price, last_distance = matched[-1][0], matched[-1][1]
        for price, distance, station in strict:
            if station.id in returned:
                continue
            cheaper = price < last_price - 1e-9 or (abs(price - last_price) < 1e-9
                                                     and distance < last_distance - DISTANCE_TOL)
            if len(results) < limit or cheaper:
                problems.append(f"{where}: model station {station.id} {price}p at {distance:.3f} mi "
                                f"is missing (last returned {last_price}p {last_distance}mi)")
                break
    if strict and results and len(loose) == len(strict) and matched:
        if abs(matched[0][0] - strict[0][0]) > 1e-9:
            problems.append(f"{where}: cheapest {matched[0][0]}p ({matched[0][2].id}) but model cheapest is "
                            f"{strict[0][0]}p ({strict[0][2].id} at {strict[0][1]:.3f} mi)")


def dict_distance(distances, station):
    for candidate, distance in distances:
        if candidate is station:
            return distance
    return None


def run_comparison(stack, model, rng, near_count, uniform_count, focus=None):
    """Queries every point x fuel x radius x limit and returns (problems, number of queries)."""
    stations = model.stations()
    points = query_points(rng, focus if focus is not None else stations, near_count, uniform_count)
    # Every site id that repeats within a feed (e.g. Asda's two A45 sites): query at each copy.
    repeated = {s.id.split("#", 1)[0] for s in stations if "#" in s.id}
    points += [(s.lat, s.lng) for s in stations if s.id.split("#", 1)[0] in repeated]
    requests, keys = [], []
    for lat, lng in points:
        for fuel in FUELS:
            for radius in RADII:
                for limit in LIMITS:
                    requests.append(("lookup.cheapest",
                                     {"fuel": fuel, "lat": lat, "lng": lng, "radiusMiles": radius, "limit": limit}))
                    keys.append((lat, lng, fuel, radius, limit))
    replies = stack.lookup_client.pipeline(requests)
    model_by_id = {s.id: s for s in stations}
    problems = []
    indexed = {r.get("body", {}).get("indexedStations") for r in replies if r.get("ok")}
    if indexed != {len(stations)}:
        problems.append(f"indexedStations {sorted(indexed, key=str)} but the model has {len(stations)} "
                        "stations with a usable location")
    distance_cache = {}
    for (lat, lng, fuel, radius, limit), reply in zip(keys, replies):
        if (lat, lng) not in distance_cache:
            near = []
            for station in stations:
                if abs(station.lat - lat) > 0.4:  # 0.4 deg lat > 27 mi: beyond the largest radius
                    continue
                distance = haversine_miles(lat, lng, station.lat, station.lng)
                if distance <= max(RADII) + 1:
                    near.append((station, distance))
            distance_cache[(lat, lng)] = near
        compare(model_by_id, distance_cache[(lat, lng)], fuel, radius, limit, lat, lng, reply, problems)
    answered = sum(1 for r in replies if r.get("ok") and r["body"].get("results"))
    print(f"{len(requests)} queries at {len(points)} points ({len(repeated)} repeated site ids), "
          f"{answered} with at least one station")
    return problems, len(requests)


def ingest_and_check_counts(stack, model, retailer, path):
    """Ingests one real feed inline, checks the reply's counts against the model, updates the model."""
    document = load_json(path)
    body = stack.ingest_feed(retailer, feed=document)
    records = [r for r in document["stations"] if isinstance(r, dict)
               and isinstance(r.get("site_id"), str) and r["site_id"].strip()]
    usable = stations_of_feed(retailer, document)
    problems = []
    if body.get("accepted") != len(records):
        problems.append(f"{retailer} ({path.name}): accepted {body.get('accepted')}, model {len(records)}")
    if "withoutLocation" in body and body["withoutLocation"] != len(records) - len(usable):
        problems.append(f"{retailer} ({path.name}): withoutLocation {body['withoutLocation']}, "
                        f"model {len(records) - len(usable)}")
    model.ingest(retailer, document)
    return problems


def report(problems, queries, label):
    if problems:
        listed = "\n".join(problems[:MAX_LISTED])
        more = f"\n... and {len(problems) - MAX_LISTED} more" if len(problems) > MAX_LISTED else ""
        pytest.fail(f"{label}: {len(problems)} mismatches over {queries} queries:\n{listed}{more}")


@pytest.mark.time_limit(120)
@pytest.mark.parametrize("folder", SNAPSHOTS)
def test_cheapest_matchesIndependentModel_onSnapshot(stack, folder):
    feeds = snapshot_feeds(folder)
    assert feeds, f"no feeds in {folder}"
    model = Model()
    problems = []
    for retailer, path in feeds:
        problems += ingest_and_check_counts(stack, model, retailer, path)
    rng = random.Random(f"fuelboard-{folder}")
    found, queries = run_comparison(stack, model, rng, near_count=140, uniform_count=80)
    report(problems + found, queries, folder)


@pytest.mark.time_limit(120)
def test_cheapest_matchesIndependentModel_onSingleCapturesReplacingEachOther(stack):
    rounds = capture_rounds()
    assert rounds, "no single captures found"
    model = Model()
    problems, total = [], 0
    for number, feeds in enumerate(rounds):
        for retailer, path in feeds:
            problems += ingest_and_check_counts(stack, model, retailer, path)
        replaced = {retailer for retailer, _ in feeds}
        focus = [s for s in model.stations() if s.retailer in replaced]
        rng = random.Random(f"fuelboard-captures-{number}")
        near, uniform = (140, 60) if number == 0 else (60, 10)
        found, queries = run_comparison(stack, model, rng, near, uniform, focus=focus)
        problems += [f"round {number} ({', '.join(p.name for _, p in feeds)}): {p}" for p in found]
        total += queries
    report(problems, total, "single captures")


@pytest.mark.time_limit(60)
def test_cheapest_withRetailerFilter_matchesModelRestrictedToRetailer(stack):
    model = Model()
    for retailer, path in snapshot_feeds(SNAPSHOTS[0]):
        stack.ingest_feed(retailer, feed=load_json(path))
        model.ingest(retailer, load_json(path))
    rng = random.Random("fuelboard-retailer-filter")
    stations = model.stations()
    problems, queries = [], 0
    for _ in range(120):
        anchor = rng.choice(stations)
        lat, lng = anchor.lat + rng.gauss(0, 0.05), anchor.lng + rng.gauss(0, 0.08)
        fuel, radius = rng.choice(FUELS), rng.choice(RADII)
        retailer = anchor.retailer if rng.random() < 0.7 else rng.choice(sorted(model.by_retailer))
        reply = stack.lookup_client.request("lookup.cheapest", {"fuel": fuel, "lat": lat, "lng": lng,
                                                                "radiusMiles": radius, "limit": 5,
                                                                "retailer": retailer})
        queries += 1
        own = model.by_retailer[retailer]
        distances = [(s, haversine_miles(lat, lng, s.lat, s.lng)) for s in own]
        compare({s.id: s for s in own}, distances, fuel, radius, 5, lat, lng, reply, problems)
    report(problems, queries, "retailer filter")


def test_cheapest_neverAnswersStationsOfBadRecords(stack):
    """The records DATA.md names as bad (0,0, Gibraltar, sentinels) never come back."""
    feeds = dict(snapshot_feeds(SNAPSHOTS[1]))
    for retailer in ("mfg", "morrisons", "asda"):
        stack.ingest_feed(retailer, feed=load_json(feeds[retailer]))
    # Gibraltar, where the 2026 Morrisons feed's only site is, and the Gulf of Guinea (0,0).
    for lat, lng in ((36.14498138, -5.360020161), (0.0, 0.0), (0.01, 0.01)):
        for fuel in FUELS:
            reply = stack.lookup_client.request("lookup.cheapest", {"fuel": fuel, "lat": lat, "lng": lng,
                                                                    "radiusMiles": 25, "limit": 50})
            assert reply.get("ok") is True, reply
            assert reply["body"]["results"] == [], f"{fuel} near {lat},{lng}: {reply['body']['results'][:2]}"
    asda = load_json(feeds["asda"])["stations"]
    sentinel_sites = [s for s in asda if any(v in (999.9, 10) for v in (s.get("prices") or {}).values())]
    assert sentinel_sites, "the 2026 Asda feed is expected to hold sentinel prices (DATA.md section 4)"
    for record in sentinel_sites[:40]:
        lat, lng = float(record["location"]["latitude"]), float(record["location"]["longitude"])
        for fuel, value in record["prices"].items():
            if value not in (999.9, 10):
                continue
            reply = stack.lookup_client.request("lookup.cheapest", {"fuel": fuel, "lat": lat, "lng": lng,
                                                                    "radiusMiles": 1, "limit": 50})
            assert reply.get("ok") is True, reply
            for result in reply["body"]["results"]:
                assert 80 <= result["pricePence"] < 300, result
                assert not (result["station"]["id"] == f"asda/{record['site_id'].strip()}"), (
                    f"sentinel {value} of asda/{record['site_id']} {fuel} came back as {result}")
