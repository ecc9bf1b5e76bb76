import Messages

/// Roughly where each UK postcode area lies: the main post town's position, to tens of
/// kilometres. Enough to tell which of two positions a station's postcode agrees with when its
/// coordinates and its site id's geohash are hundreds of kilometres apart (`SitePosition`); not a
/// postcode lookup.
enum PostcodeAreas {
    /// The area a postcode's outward code starts with ("SR3 3ND" -> SR) and its position; nil for
    /// letters that name no area.
    static func area(of postcode: String) -> (letters: String, centre: Coordinate)? {
        let scalars = postcode.unicodeScalars.prefix { ("A"..."Z").contains($0) }
        guard (1...2).contains(scalars.count), scalars.count < postcode.unicodeScalars.count else { return nil }
        let letters = String(String.UnicodeScalarView(scalars))
        return centres[letters].map { (letters, Coordinate(lat: $0.0, lng: $0.1)) }
    }

    /// Latitude and longitude of each area's main town (or the middle of a wide area: HS, IV, KW, BT).
    static let centres: [String: (Double, Double)] = [
        "AB": (57.15, -2.11), "AL": (51.75, -0.34), "B": (52.48, -1.90), "BA": (51.38, -2.36),
        "BB": (53.75, -2.48), "BD": (53.80, -1.76), "BH": (50.72, -1.88), "BL": (53.58, -2.43),
        "BN": (50.83, -0.14), "BR": (51.40, 0.02), "BS": (51.45, -2.59), "BT": (54.65, -6.50),
        "CA": (54.89, -2.93), "CB": (52.21, 0.12), "CF": (51.48, -3.18), "CH": (53.19, -2.89),
        "CM": (51.74, 0.47), "CO": (51.89, 0.90), "CR": (51.37, -0.10), "CT": (51.28, 1.08),
        "CV": (52.41, -1.51), "CW": (53.10, -2.44), "DA": (51.45, 0.22), "DD": (56.46, -2.97),
        "DE": (52.92, -1.48), "DG": (55.07, -3.61), "DH": (54.78, -1.57), "DL": (54.52, -1.55),
        "DN": (53.52, -1.13), "DT": (50.71, -2.44), "DY": (52.51, -2.09), "E": (51.54, -0.03),
        "EC": (51.52, -0.09), "EH": (55.95, -3.19), "EN": (51.65, -0.08), "EX": (50.72, -3.53),
        "FK": (56.00, -3.78), "FY": (53.82, -3.05), "G": (55.86, -4.25), "GL": (51.86, -2.24),
        "GU": (51.24, -0.57), "GY": (49.45, -2.58), "HA": (51.58, -0.34), "HD": (53.65, -1.78),
        "HG": (54.00, -1.54), "HP": (51.72, -0.70), "HR": (52.06, -2.72), "HS": (57.80, -7.00),
        "HU": (53.74, -0.33), "HX": (53.72, -1.86), "IG": (51.56, 0.08), "IM": (54.23, -4.55),
        "IP": (52.20, 1.00), "IV": (57.50, -4.60), "JE": (49.21, -2.13), "KA": (55.61, -4.50),
        "KT": (51.41, -0.30), "KW": (58.50, -3.30), "KY": (56.11, -3.16), "L": (53.41, -2.98),
        "LA": (54.20, -2.90), "LD": (52.24, -3.38), "LE": (52.64, -1.13), "LL": (53.00, -3.80),
        "LN": (53.23, -0.54), "LS": (53.80, -1.55), "LU": (51.88, -0.42), "M": (53.48, -2.24),
        "ME": (51.38, 0.52), "MK": (52.04, -0.76), "ML": (55.79, -3.99), "N": (51.57, -0.10),
        "NE": (54.98, -1.61), "NG": (52.95, -1.15), "NN": (52.24, -0.90), "NP": (51.59, -3.00),
        "NR": (52.63, 1.30), "NW": (51.55, -0.20), "OL": (53.54, -2.12), "OX": (51.75, -1.26),
        "PA": (56.00, -5.00), "PE": (52.70, 0.00), "PH": (56.70, -3.80), "PL": (50.38, -4.14),
        "PO": (50.82, -1.09), "PR": (53.76, -2.70), "RG": (51.45, -0.97), "RH": (51.15, -0.20),
        "RM": (51.58, 0.18), "S": (53.38, -1.47), "SA": (51.75, -4.20), "SE": (51.47, -0.03),
        "SG": (51.90, -0.20), "SK": (53.41, -2.15), "SL": (51.51, -0.60), "SM": (51.36, -0.19),
        "SN": (51.56, -1.78), "SO": (50.91, -1.40), "SP": (51.07, -1.79), "SR": (54.91, -1.38),
        "SS": (51.54, 0.71), "ST": (53.00, -2.18), "SW": (51.46, -0.17), "SY": (52.60, -3.20),
        "TA": (51.02, -3.10), "TD": (55.61, -2.81), "TF": (52.68, -2.45), "TN": (51.20, 0.27),
        "TQ": (50.46, -3.53), "TR": (50.26, -5.05), "TS": (54.57, -1.23), "TW": (51.45, -0.33),
        "UB": (51.55, -0.48), "W": (51.51, -0.20), "WA": (53.39, -2.59), "WC": (51.52, -0.12),
        "WD": (51.66, -0.40), "WF": (53.68, -1.50), "WN": (53.55, -2.63), "WR": (52.19, -2.22),
        "WS": (52.59, -1.98), "WV": (52.59, -2.13), "YO": (53.96, -1.08), "ZE": (60.30, -1.30),
    ]
}
