/// One node of a `SpatialTree`: the tight bounding box of the (`Float`) points below it and the
/// lowest price among them (0 in a tree without prices).
struct NodeRecord: Sendable {
    var loX: Float, loY: Float, loZ: Float
    var hiX: Float, hiY: Float, hiZ: Float
    var minPrice: Int32
    /// Pads the record to 32 bytes so two siblings fill one cache line (see `NodeStorage`).
    private var padding: Int32 = 0

    init(loX: Float, loY: Float, loZ: Float, hiX: Float, hiY: Float, hiZ: Float, minPrice: Int32) {
        (self.loX, self.loY, self.loZ) = (loX, loY, loZ)
        (self.hiX, self.hiY, self.hiZ) = (hiX, hiY, hiZ)
        self.minPrice = minPrice
    }

    /// Squared chord from `(x, y, z)` to the nearest point of the box.
    @inline(__always)
    func chordSquared(x: Double, y: Double, z: Double) -> Double {
        let dx = max(Double(loX) - x, 0, x - Double(hiX))
        let dy = max(Double(loY) - y, 0, y - Double(hiY))
        let dz = max(Double(loZ) - z, 0, z - Double(hiZ))
        return dx * dx + dy * dy + dz * dz
    }
}

/// One (station, fuel) entry of a tree: its unit vector in `Float`, its price, its station.
struct PointRecord: Sendable {
    var x: Float, y: Float, z: Float
    /// Tenths of a penny (0 in a tree without prices).
    var price: Int32
    /// The station's rank: its index in the index's `records`, which are in id order.
    var station: Int32

    /// Squared chord from `(x, y, z)` to this point as stored.
    @inline(__always)
    func chordSquared(x qx: Double, y qy: Double, z qz: Double) -> Double {
        let dx = Double(x) - qx, dy = Double(y) - qy, dz = Double(z) - qz
        return dx * dx + dy * dy + dz * dz
    }
}

/// What the search needs about a station besides its tree point: the exact position for the
/// haversine distance, the columns the filters test, and where the `Station` itself is.
struct StationRecord: Sendable {
    /// Index of the `Station` in the input array.
    var position: Int32
    /// Its prices that are outliers in its retailer's feed (in what would be padding).
    var outliers: PriceOutlierFlags
    var lat: Double
    var lng: Double
    /// `updated.timeIntervalSinceReferenceDate`.
    var updatedSeconds: Double
    /// Index into the index's case-folded brand table.
    var brand: Int32
    /// Index into the index's case-folded retailer table.
    var retailer: Int32
}
