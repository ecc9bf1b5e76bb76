"""An independent model of "cheapest station within R", written from DATA.md section 5 only.

Rules used (DATA.md section 4/5 and the task brief):
- a feed is an object with a `stations` list; each station needs a non-empty trimmed `site_id`;
  one retailer per feed; site ids may repeat within a feed and are kept apart
  (`retailer/site`, `retailer/site#2`, ... in feed order);
- prices: numbers or numeric strings, rounded to 0.1p; `<= 0`, `< 80` or `>= 300` = no price;
- coordinates: numbers or numeric strings; `0,0`, non-numeric, or outside the UK box
  (lat 49.8..61, lng -8.7..1.9) = unusable (the station is then never a lookup answer);
- distance: haversine on a sphere of radius 3958.7613 miles;
- order: cheapest first, ties by distance;
- a station whose coordinates lie 100 km or more from its postcode area while its site id, read
  as a geohash, lies within a third of that is where its site id says (DATA.md: Ascona's wrong
  coordinates, right site ids). The area's position is the median of the stations of that area
  whose site ids agree with their coordinates, in every feed held (the product uses a table of
  post towns instead: both place the clear cases alike).
"""

import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

EARTH_RADIUS_MILES = 3958.7613
UK_LAT = (49.8, 61.0)
UK_LNG = (-8.7, 1.9)
FUELS = ("E10", "E5", "B7", "SDV")
MIN_PRICE = 80.0
MAX_PRICE = 300.0  # exclusive


def coerce_number(value):
    """A finite float from a JSON number or numeric string, else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def price_pence(value):
    """The price rounded to 0.1p, or None when it means "no price"."""
    number = coerce_number(value)
    if number is None:
        return None
    try:
        rounded = float(Decimal(repr(number)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    except InvalidOperation:
        return None
    if rounded <= 0 or rounded < MIN_PRICE or rounded >= MAX_PRICE:
        return None
    return rounded


def usable_location(location):
    """(lat, lng) when the location is usable, else None."""
    if not isinstance(location, dict):
        return None
    lat = coerce_number(location.get("latitude"))
    lng = coerce_number(location.get("longitude"))
    if lat is None or lng is None:
        return None
    if lat == 0 and lng == 0:
        return None
    if not (UK_LAT[0] <= lat <= UK_LAT[1] and UK_LNG[0] <= lng <= UK_LNG[1]):
        return None
    return lat, lng


def in_uk_box(lat, lng):
    return UK_LAT[0] <= lat <= UK_LAT[1] and UK_LNG[0] <= lng <= UK_LNG[1] and not (lat == 0 and lng == 0)


def haversine_miles(lat1, lng1, lat2, lng2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dlat = p2 - p1
    dlng = math.radians(lng2 - lng1)
    a = math.sin(dlat / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dlng / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(min(1.0, math.sqrt(a)))


GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz"


def geohash_centre(text):
    """The centre of a geohash cell, for a site id of 7 to 12 geohash characters (not all digits)."""
    if not 7 <= len(text) <= 12 or text.isdigit() or any(c not in GEOHASH for c in text):
        return None
    lat, lng, even = [-90.0, 90.0], [-180.0, 180.0], True
    for char in text:
        bits = GEOHASH.index(char)
        for shift in range(4, -1, -1):
            half = lng if even else lat
            middle = (half[0] + half[1]) / 2
            if (bits >> shift) & 1:
                half[0] = middle
            else:
                half[1] = middle
            even = not even
    return (lat[0] + lat[1]) / 2, (lng[0] + lng[1]) / 2


def kilometres(a, b):
    return haversine_miles(a[0], a[1], b[0], b[1]) * 1.609344


def postcode_area(postcode):
    """The letters the postcode starts with ("SR" of "SR3 3ND"), or None."""
    text = postcode.strip().upper() if isinstance(postcode, str) else ""
    letters = ""
    for char in text:
        if not ("A" <= char <= "Z"):
            break
        letters += char
    return letters if 1 <= len(letters) <= 2 and len(text) > len(letters) else None


class ModelStation:
    __slots__ = ("id", "retailer", "site_id", "lat", "lng", "prices", "area")

    def __init__(self, id_, retailer, site_id, lat, lng, prices, area=None):
        self.id = id_
        self.retailer = retailer
        self.site_id = site_id
        self.lat = lat
        self.lng = lng
        self.prices = prices
        self.area = area

    def __repr__(self):
        return f"<{self.id} {self.lat},{self.lng} {self.prices}>"


def stations_of_feed(retailer, document):
    """Every station of one feed with a usable location (prices may be empty)."""
    stations = document.get("stations") if isinstance(document, dict) else None
    if not isinstance(stations, list):
        raise ValueError("feed has no stations list")
    seen = {}
    result = []
    for record in stations:
        if not isinstance(record, dict):
            continue
        site = record.get("site_id")
        if not isinstance(site, str) or not site.strip():
            continue
        site = site.strip()
        seen[site] = seen.get(site, 0) + 1
        station_id = f"{retailer}/{site}" if seen[site] == 1 else f"{retailer}/{site}#{seen[site]}"
        location = usable_location(record.get("location"))
        if location is None:
            continue
        raw_prices = record.get("prices") if isinstance(record.get("prices"), dict) else {}
        prices = {}
        for fuel in FUELS:
            price = price_pence(raw_prices.get(fuel))
            if price is not None:
                prices[fuel] = price
        result.append(ModelStation(station_id, retailer, site, location[0], location[1], prices,
                                   postcode_area(record.get("postcode"))))
    return result


def placed_by_site_id(stations):
    """`stations` with each whose coordinates and site id disagree placed as the docstring says."""
    agreeing = {}
    for station in stations:
        cell = geohash_centre(station.site_id)
        if station.area and cell and kilometres(cell, (station.lat, station.lng)) <= 5:
            agreeing.setdefault(station.area, []).append((station.lat, station.lng))
    centres = {}
    for area, points in agreeing.items():
        lats, lngs = sorted(p[0] for p in points), sorted(p[1] for p in points)
        centres[area] = (lats[len(lats) // 2], lngs[len(lngs) // 2])
    for station in stations:
        cell = geohash_centre(station.site_id)
        centre = centres.get(station.area)
        if not cell or not centre or kilometres(cell, (station.lat, station.lng)) <= 5:
            continue
        from_coordinates = kilometres((station.lat, station.lng), centre)
        if from_coordinates >= 100 and kilometres(cell, centre) <= from_coordinates / 3:
            station.lat, station.lng = cell
    return stations


class Model:
    """The retailers' current stations; ingesting a retailer replaces its previous stations."""

    def __init__(self):
        self.by_retailer = {}

    def ingest(self, retailer, document):
        self.by_retailer[retailer] = stations_of_feed(retailer, document)

    def stations(self):
        return placed_by_site_id([s for stations in self.by_retailer.values() for s in stations])
