/// Word lists that help pick a locality out of a free-text UK address. All entries are lower-case.
enum PlaceWords {
    /// Cities with so many stations that "<brand> <city>" would not tell them apart when spoken.
    static let bigCities: Set<String> = [
        "london", "birmingham", "manchester", "glasgow", "leeds", "liverpool", "sheffield", "bristol",
        "edinburgh", "cardiff", "belfast", "leicester", "nottingham", "newcastle", "newcastle upon tyne", "newcastle-upon-tyne",
    ]

    /// The last words of `regions`: a part not ending in one ends in no region.
    static let regionLastWords: Set<Substring> = Set(regions.compactMap { $0.split(separator: " ").last })

    /// Counties, regions and nations: dropped from the end of an address before picking the locality.
    static let regions: Set<String> = [
        "bedfordshire", "beds", "berkshire", "berks", "buckinghamshire", "bucks", "cambridgeshire", "cambs",
        "cheshire", "cornwall", "cumbria", "derbyshire", "devon", "dorset", "county durham", "co durham",
        "co. durham", "east sussex", "essex", "gloucestershire", "glos", "greater london", "greater manchester",
        "hampshire", "hants", "herefordshire", "hertfordshire", "herts", "isle of wight", "kent", "lancashire",
        "lancs", "leicestershire", "leics", "lincolnshire", "lincs", "north lincolnshire",
        "north east lincolnshire", "merseyside", "middlesex", "norfolk", "northamptonshire", "northants",
        "northumberland", "north yorkshire", "n yorks", "nottinghamshire", "notts", "oxfordshire", "oxon",
        "rutland", "shropshire", "salop", "somerset", "north somerset", "south yorkshire", "staffordshire",
        "staffs", "suffolk", "surrey", "tyne and wear", "tyne & wear", "warwickshire", "warks",
        "west midlands", "west sussex", "west yorkshire", "wiltshire", "wilts", "worcestershire", "worcs",
        "east yorkshire", "east riding of yorkshire", "yorkshire", "avon", "cleveland", "humberside",
        "wales", "scotland", "england", "northern ireland", "uk", "united kingdom", "great britain", "gb",
        "powys", "gwynedd", "clwyd", "dyfed", "gwent", "glamorgan", "south glamorgan", "mid glamorgan",
        "west glamorgan", "vale of glamorgan", "carmarthenshire", "pembrokeshire", "ceredigion", "denbighshire",
        "flintshire", "anglesey", "isle of anglesey", "monmouthshire", "aberdeenshire", "fife", "lanarkshire",
        "north lanarkshire", "south lanarkshire", "ayrshire", "north ayrshire", "south ayrshire",
        "east ayrshire", "dumfries and galloway", "dumfries & galloway", "scottish borders", "borders",
        "highland", "highlands", "lothian", "west lothian", "east lothian", "midlothian", "perthshire",
        "perth and kinross", "stirlingshire", "renfrewshire", "east renfrewshire", "argyll", "argyll and bute",
        "moray", "dunbartonshire", "west dunbartonshire", "east dunbartonshire", "county antrim", "co antrim",
        "county down", "co down", "county armagh", "co armagh", "county tyrone", "co tyrone",
        "county londonderry", "co londonderry", "county fermanagh", "co fermanagh", "sussex",
        "south gloucestershire", "south glos", "west yorks", "south yorks", "north yorks", "east yorks",
        "w yorks", "s yorks", "west mids",
    ]

    /// Directions that may follow a street name (`Garstang Road East`, `M3 Motorway Northbound`).
    static let directions: Set<String> = [
        "north", "south", "east", "west", "n", "s", "e", "w", "northbound", "southbound", "eastbound",
        "westbound", "nb", "sb", "eb", "wb",
    ]

    /// Words that end a street name: an address ending with one is a street, not a town.
    static let streetWords: Set<String> = [
        "road", "rd", "street", "lane", "ln", "avenue", "ave", "way", "drive", "dr", "close", "crescent",
        "cres", "place", "pl", "square", "sq", "hill", "rise", "row", "terrace", "parade", "pde", "gardens",
        "grove", "bypass", "by-pass", "roundabout", "highway", "broadway", "boulevard", "walk", "estate",
        "centre", "center", "wharf", "quay", "mews", "court", "circus", "brow", "interchange", "roads",
    ]

    /// Words that begin a two-word town (`St Helens`, `Market Harborough`, `Kings Lynn`).
    static let townPrefixes: Set<String> = [
        "st", "st.", "saint", "market", "great", "little", "north", "south", "east", "west", "upper", "lower",
        "high", "long", "kings", "king's", "bishops", "bishop's", "chipping", "castle", "church", "old", "new",
        "royal", "hemel", "milton", "sutton", "welwyn",
    ]

    /// Words that only end a town name and need the word before (`Cradley Heath`, `Milton Keynes`).
    static let townSuffixes: Set<String> = [
        "heath", "keynes", "regis", "spa", "magna", "parva", "bay", "green", "end", "cross", "wells",
        "hempstead", "coldfield", "city", "bridge", "vale", "common", "abbey", "mills", "garrison", "bar",
    ]

    /// Small words inside a town name (`Stoke on Trent`, `Ashby de la Zouch`).
    static let connectors: Set<String> = ["on", "upon", "under", "le", "in", "by", "de", "la", "next", "the", "of"]

    /// Words that alone name no place: the last word of "Springhill Retail Park" or "Thirsk Services".
    static let genericSiteWords: Set<String> = [
        "park", "services", "service", "garage", "stores", "store", "ltd", "extra", "express", "superstore",
        "centre", "center", "estate", "station", "area", "site", "unit", "forecourt", "pfs",
    ]

    /// Words after which the real locality follows (`A591 Near Windermere`, `Bloxham Nr Banbury`).
    static let nearWords: Set<String> = ["near", "nr", "nr."]
}
