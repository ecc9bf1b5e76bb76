import Foundation
import FuelLookup
import Messages
import SampleFeeds

// lookup-bench: builds PriceIndex over synthetic, clustered UK-like station sets and times lookups.

/// Command-line options.
struct Options {
    var sizes = [10_000, 100_000, 1_000_000]
    var queries = 200_000
    var seed: UInt64 = 42
    var radiusMiles = 5.0
    var repeats = 3

    static let usage = """
        usage: lookup-bench [--sizes 10000,100000,1000000] [--queries N] [--repeats R] [--seed S] [--radius MILES]
          Builds a PriceIndex for each size (stations clustered around ~200 UK towns plus uniform noise),
          then times cheapest (E10, limit 1) and nearest (any fuel, limit 1) lookups from points drawn
          where stations are and from a uniform UK box. Prints ns/lookup, build time, index bytes,
          and the ratio of the largest size's cost to the smallest's. Times are the calling thread's CPU
          time, best of R passes; RSS is the whole process (stations and index) after that size is built.
        """

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { return nil }
            guard let value = rest.popFirst() else { return fail("missing value after \(flag)") }
            switch flag {
            case "--sizes":
                let sizes = value.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                guard !sizes.isEmpty else { return fail("bad --sizes '\(value)'") }
                options.sizes = sizes
            case "--queries":
                guard let count = Int(value), count > 0 else { return fail("bad --queries '\(value)'") }
                options.queries = count
            case "--repeats":
                guard let count = Int(value), count > 0 else { return fail("bad --repeats '\(value)'") }
                options.repeats = count
            case "--seed":
                guard let seed = UInt64(value) else { return fail("bad --seed '\(value)'") }
                options.seed = seed
            case "--radius":
                guard let radius = Double(value), radius >= 0 else { return fail("bad --radius '\(value)'") }
                options.radiusMiles = radius
            default:
                return fail("unknown option \(flag)")
            }
        }
        return options
    }

    private static func fail(_ message: String) -> Options? {
        FileHandle.standardError.write(Data("lookup-bench: \(message)\n".utf8))
        exit(2)
    }
}

/// The bench's draws from SampleFeeds' SplitMix64, so every run with one seed sees the same
/// stations and queries.
extension SplitMix64 {
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func gaussian() -> Double {
        (-2 * log(max(unit(), 1e-300))).squareRoot() * cos(2 * Double.pi * unit())
    }
}

/// Where synthetic stations are: towns with uneven (Zipf-like) weights and sizes, plus 10% noise.
struct UKLandscape {
    static let latitudes = 50.0 ... 58.6
    static let longitudes = -5.7 ... 1.7
    static let milesPerDegreeLat = 69.0

    struct Town { var centre: Coordinate; var spreadMiles: Double }
    let towns: [Town]
    /// Cumulative weights over `towns`.
    let cumulative: [Double]

    init(rng: inout SplitMix64, townCount: Int = 200) {
        var towns: [Town] = [], cumulative: [Double] = [], total = 0.0
        for rank in 1 ... townCount {
            let weight = 1 / pow(Double(rank), 1.1)
            total += weight
            cumulative.append(total)
            let centre = Self.uniform(&rng)
            towns.append(Town(centre: centre, spreadMiles: 1.5 + 12 * (weight).squareRoot()))
        }
        self.towns = towns
        self.cumulative = cumulative.map { $0 / total }
    }

    static func uniform(_ rng: inout SplitMix64) -> Coordinate {
        Coordinate(lat: latitudes.lowerBound + rng.unit() * (latitudes.upperBound - latitudes.lowerBound),
                   lng: longitudes.lowerBound + rng.unit() * (longitudes.upperBound - longitudes.lowerBound))
    }

    /// A point drawn from the station distribution.
    func sample(_ rng: inout SplitMix64) -> Coordinate {
        if rng.unit() < 0.1 { return Self.uniform(&rng) }
        let pick = rng.unit()
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < pick { low = middle + 1 } else { high = middle }
        }
        let town = towns[low]
        let dLat = rng.gaussian() * town.spreadMiles / Self.milesPerDegreeLat
        let dLng = rng.gaussian() * town.spreadMiles / (Self.milesPerDegreeLat * cos(town.centre.lat * .pi / 180))
        return Coordinate(lat: town.centre.lat + dLat, lng: town.centre.lng + dLng)
    }
}

let brands = ["Esso", "Shell", "BP", "Texaco", "Jet", "Tesco", "Asda", "Sainsbury's", "Morrisons", "Gulf"]
let retailers = ["asda", "tesco", "sainsburys", "morrisons", "applegreen", "mfg", "rontec", "shell"]
let epoch = Date(timeIntervalSinceReferenceDate: 780_000_000)

func makeStations(count: Int, landscape: UKLandscape, rng: inout SplitMix64) -> [Station] {
    let fuels: [(FuelCode, Double, Double)] = [(.e10, 0.95, 1350), (.b7, 0.97, 1420), (.e5, 0.45, 1500),
                                               (.sdv, 0.2, 1580)]
    return (0 ..< count).map { index in
        let location = landscape.sample(&rng)
        var prices: FuelPrices = [:]
        for (fuel, share, mean) in fuels where rng.unit() < share {
            prices[fuel] = Price(tenths: Int32((mean + rng.gaussian() * 40).rounded()))
        }
        let retailer = retailers[Int(rng.next() % UInt64(retailers.count))]
        let brand = brands[Int(rng.next() % UInt64(brands.count))]
        return Station(id: "\(retailer)/\(index)", retailer: retailer, siteId: "\(index)", brand: brand,
                       name: "\(brand) \(index % 997)", address: "\(index % 400) High Street, Town \(index % 997)",
                       postcode: "AB1 2CD", location: location, reportedLatitude: location.lat,
                       reportedLongitude: location.lng, prices: prices,
                       updated: epoch.addingTimeInterval(-Double(rng.next() % 172_800)))
    }
}

/// Resident set size in bytes (Linux), or nil.
func residentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
    return kilobytes * 1024
}

/// CPU seconds used by this thread: unlike wall time, not inflated when other work shares the cores.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// Thread CPU seconds and wall seconds taken by `work`.
func measure(_ work: () -> Void) -> (cpu: Double, wall: Double) {
    let wallStart = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUSeconds()
    work()
    let cpu = threadCPUSeconds() - cpuStart
    return (cpu, Double(DispatchTime.now().uptimeNanoseconds - wallStart) * 1e-9)
}

/// CPU nanoseconds per call of `lookup` over `points`: the best of `repeats` passes (after a warm-up
/// over a slice), so a burst of other load on the machine does not decide the figure.
func time(_ points: [Coordinate], repeats: Int, _ lookup: (Coordinate) -> [Match]) -> (ns: Double, found: Int) {
    var found = 0
    for point in points.prefix(10_000) { found &+= lookup(point).count }
    var best = Double.infinity
    for _ in 0 ..< repeats {
        found = 0
        let elapsed = measure {
            for point in points { found &+= lookup(point).count }
        }
        best = min(best, elapsed.cpu * 1e9 / Double(points.count))
    }
    return (best, found)
}

func padded(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    print(Options.usage)
    exit(0)
}

var landscapeRNG = SplitMix64(seed: options.seed)
let landscape = UKLandscape(rng: &landscapeRNG)
let radius = options.radiusMiles
let columns = ["cheapest@stn", "cheapest@box", "nearest@stn", "nearest@box"]
print("lookup-bench: \(options.queries) queries per set, best of \(options.repeats), radius \(radius) mi, limit 1, "
      + "seed \(options.seed)")
print("CPU time of the measuring thread; lookups in ns per lookup (cheapest: E10; nearest: any fuel)")
print(padded("stations", 9) + padded("build s", 9) + padded("wall s", 8) + padded("index MB", 10) + padded("B/stn", 7)
      + padded("RSS MiB", 9) + columns.map { padded($0, 14) }.joined() + padded("found%", 8))
var costs: [(size: Int, ns: [Double])] = []
for size in options.sizes {
    var rng = SplitMix64(seed: options.seed &+ UInt64(size))
    let stations = makeStations(count: size, landscape: landscape, rng: &rng)
    var built: PriceIndex?
    let build = measure { built = PriceIndex(stations: stations) }
    guard let index = built else { continue }
    let nearStations = (0 ..< options.queries).map { _ in landscape.sample(&rng) }
    let inBox = (0 ..< options.queries).map { _ in UKLandscape.uniform(&rng) }
    let cheapest = { (point: Coordinate) in index.cheapest(fuel: .e10, at: point, radiusMiles: radius, limit: 1) }
    let nearest = { (point: Coordinate) in index.nearest(fuel: nil, at: point, radiusMiles: radius, limit: 1) }
    let results = [(nearStations, cheapest), (inBox, cheapest), (nearStations, nearest), (inBox, nearest)]
        .map { time($0.0, repeats: options.repeats, $0.1) }
    costs.append((size, results.map(\.ns)))
    let rss = residentBytes().map { String(format: "%.0f", Double($0) / 1_048_576) } ?? "n/a"
    print(padded("\(size)", 9) + padded(String(format: "%.3f", build.cpu), 9)
          + padded(String(format: "%.3f", build.wall), 8)
          + padded(String(format: "%.1f", Double(index.indexByteCount) / 1e6), 10)
          + padded("\(index.indexByteCount / max(index.count, 1))", 7) + padded(rss, 9)
          + results.map { padded(String(format: "%.0f", $0.ns), 14) }.joined()
          + padded(String(format: "%.1f", 100 * Double(results[0].found) / Double(options.queries)), 8))
}
if let first = costs.first, let last = costs.last, costs.count > 1 {
    let ratios = zip(columns, zip(last.ns, first.ns)).map { "\($0.0) \(String(format: "%.2f", $0.1.0 / $0.1.1))x" }
    print("cost ratio \(last.size)/\(first.size): " + ratios.joined(separator: ", "))
}
