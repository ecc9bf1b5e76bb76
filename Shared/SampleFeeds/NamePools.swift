/// Words for street, district and village names.
enum NamePools {
    static let streets = [
        "High Street", "Station Road", "Church Road", "Main Street", "Park Road", "Victoria Road",
        "Mill Lane", "North Road", "South Street", "Queen Street", "King Street", "New Road", "Green Lane",
        "Bridge Street", "Market Street", "West Street", "Manor Road", "Water Lane", "Chapel Street",
        "Albert Road", "Springfield Road", "Windsor Road", "Grange Road", "Kings Road", "Moor Lane",
        "Broad Street", "Castle Street", "Hall Lane", "Mill Road", "Carwin Rise", "West Hill",
        "Butts Road", "Hyndburn Road", "Commercial Road", "Ring Road", "Bypass", "Industrial Estate Road",
        "Northway", "Eastern Avenue", "Western Avenue", "Abbey Road", "Cemetery Road", "Dale Road",
        "Fore Street", "Garden Street", "Harbour Road", "Links Road", "Meadow Way", "Oak Avenue",
    ]

    static let districts = [
        "Northfield", "Westwood", "Eastfield", "Southgate", "Hillside", "Brookside", "Parkside",
        "Moorside", "Oakwood", "Ashfield", "Broadway", "Fairfield", "Greenhill", "Highfield", "Kingsway",
        "Longford", "Meadowbank", "Newlands", "Riverside", "Stonebridge", "Thornhill", "Woodside",
        "Abbey Park", "Castleton", "Bankside", "Lakeside", "Heathfield", "Millbrook", "Brayton", "Marsh End",
    ]

    static let retailPlaces = ["Retail Park", "Shopping Centre", "Superstore", "Trading Estate", "Business Park"]
    static let tescoFormats = ["Extra", "Superstore", "Express", "Express", "Superstore"]

    static let villageStarts: [UKNation: [String]] = [
        .england: ["Ash", "Brad", "Kirk", "Thorn", "Heath", "Brom", "Cald", "Hol", "Lang", "Mar", "Nor",
                   "Sut", "Wes", "Bar", "Chal", "Elm", "Fen", "Had", "Kel", "Mel", "Stan", "Wood", "Ship"],
        .wales: ["Llan", "Aber", "Pen", "Cwm", "Tre", "Bryn", "Pont", "Caer", "Maes", "Glyn"],
        .scotland: ["Kil", "Auchen", "Bal", "Inver", "Dal", "Strath", "Kin", "Glen", "Craig", "Dun"],
        .northernIreland: ["Bally", "Kil", "Drum", "Carrick", "Lis", "Dun", "Rath", "Tully", "Castle", "Glen"],
    ]

    static let villageEnds: [UKNation: [String]] = [
        .england: ["by", "ton", "ham", "ley", "ford", "thorpe", "field", "wick", "worth", "bury", "stead",
                   "well", "den", "more", "combe"],
        .wales: ["dewi", "gwyn", "fawr", "fach", "coed", "wen", "ddu", "y-bryn", "mawr", "teg"],
        .scotland: ["more", "beg", "lochy", "keith", "garry", "ross", "nairn", "loch", "muir", "bank"],
        .northernIreland: ["more", "beg", "keel", "nagh", "na", "lough", "gill", "drum", "moyle", "ree"],
    ]

    /// Letters allowed in the last two places of a postcode (no C, I, K, M, O or V).
    static let inwardLetters = Array("ABDEFGHJLNPQRSTUWXYZ")
}
