import Foundation
import Testing
import FeedParsing
import Messages

struct StationNameTests {
    private func name(brand: String, address: String, postcode: String = "AB1 2CD") throws -> String {
        try FeedFixtures.parseOne(FeedFixtures.station(brand: "\"\(brand)\"", address: "\"\(address)\"",
                                                       postcode: "\"\(postcode)\"")).1.name
    }

    @Test(arguments: [
        ("TESCO", "Tesco Express Doncaster Road Brayton Selby", "Tesco Selby"),
        ("ESSO", "104 BRADFORD STREET, BOLTON", "Esso Bolton"),
        ("BP", "West Hill", "BP West Hill"),
        ("TESCO", "Rockingham Rd Market Harborough", "Tesco Market Harborough"),
        ("TESCO", "East Lancashire Rd Windle Island St Helens", "Tesco St Helens"),
        ("TESCO", "Tesco Stores Ltd Watling Street Bletchley Milton Keynes", "Tesco Milton Keynes"),
        ("TESCO", "Clough St Hanley Stoke On Trent", "Tesco Stoke on Trent"),
        ("Esso", "CLAYTON ROAD, NEWCASTLE-UNDER-LYME, STAFFORDSHIRE, ST5 4AE", "Esso Newcastle-under-Lyme"),
        ("BP", "Birch Service Area, M62 Motorway, Heywood, Lancashire, OL10 2QH", "BP Heywood"),
        ("BP", "New Ash Tree Farm, Leicester Road, Churchover, Rugby, CV23 OEZ", "BP Rugby"),
        ("JET", "Eastfield Rd, South Killingholme, Immingham, North Lincolnshire", "JET Immingham"),
        ("Morrisons", "PRL Morrisons Earlston, Melrose Road, EARLSTON", "Morrisons Earlston"),
        ("Texaco", "MFG Handsworth, 9 Holyhead Road, Handsworth / Birmingham", "Texaco Handsworth"),
        // In a big city the district or street is said, not the city dozens of stations share.
        ("Asda", "112 Vallance Road, London", "Asda Vallance Road"),
        ("Asda", "Bugsby Way, Charlton, London", "Asda Charlton"),
        ("Tesco", "Tesco Stores Ltd 107 Dunton Road London", "Tesco Dunton Road"),
        ("Asda", "LONDON", "Asda London"),
        ("Tesco", "Doncaster Road, Selby", "Tesco Selby"),
        ("BP", "MFG Ings, A591 Near Windermere, Cumbria", "BP Windermere"),
        ("SHELL", "CARWIN RISE", "Shell Carwin Rise"),
        ("BP", "A419 Southbound", "BP A419 Southbound"),
        ("Shell", "Garstang Road East", "Shell Garstang Road East"),
        ("Texaco", "Global fuel sticklepath service station Sticklepath hill, Devon", "Texaco Sticklepath Hill"),
        ("Asda", "Abbey Park - North London Road, Coventry", "Asda Coventry"),
        ("Tesco", "Tesco Stores Ltd Bridge Road Rainham RM13 9YZ", "Tesco Rainham"),
        // Hyphenated towns are cased as one, however the feed cased them.
        ("Esso", "London Road, Stoke-on-trent", "Esso Stoke-on-Trent"),
        ("Esso", "Mansfield Road, Sutton-In-Ashfield", "Esso Sutton-in-Ashfield"),
        ("Shell", "Locking Road, Weston-Super-Mare", "Shell Weston-super-Mare"),
        ("BP", "Barlow Moor Road, Chorlton-Cum-Hardy", "BP Chorlton-cum-Hardy"),
        ("Asda", "Tyn-Y-Parc Road", "Asda Tyn-y-Parc Road"),
        ("Esso", "Scotswood Road, Benwell, Newcastle-upon-Tyne", "Esso Benwell"),
        ("Texaco", "Unit 4, Retail Park-Leckwith Road, Cardiff", "Texaco Retail Park-Leckwith Road"),
        // Brackets, stops and house numbers are not said (QA: "Esso (A749)", "Esso Dumbarton Road.").
        ("Esso", "(A749)", "Esso A749"),
        ("Esso", "Dumbarton Road.", "Esso Dumbarton Road"),
        ("Tesco", "290-290A Lewisham Road", "Tesco Lewisham Road"),
    ])
    func name_isBrandAndLocality(brand: String, address: String, expected: String) throws {
        #expect(try name(brand: brand, address: address) == expected)
    }

    @Test func name_whenLocalityStartsWithBrand_doesNotRepeatIt() throws {
        #expect(try name(brand: "Asda", address: "Jockey Lane, Asda Monks Cross") == "Asda Monks Cross")
    }

    @Test func name_whenTooLong_dropsLeadingWordsToFit() throws {
        let result = try name(brand: "Asda Express", address: "Somewhere, Great Little Upper Lower Middleham Cross")
        #expect(result.count <= 32)
        #expect(result.hasPrefix("Asda Express "))
        #expect(result.hasSuffix("Cross"))
    }

    @Test(arguments: ["", ",,,", "12-14", "AB1 2CD", String(repeating: "Supercalifragilistic", count: 3)])
    func name_whenAddressGivesNothingShort_isTheBrand(address: String) throws {
        #expect(try name(brand: "Shell", address: address) == "Shell")
    }

    /// Names several stations of one feed share are replaced by the district or street before the
    /// town, so a voice answer tells them apart (eleven "Esso Reading" on the real feeds).
    @Test func sharedNames_inOneFeed_sayTheStreetBeforeTheTown() throws {
        let sites = [("a", "Arborfield Road, Reading"), ("b", "MFG Norcot, 856 Oxford Road, Reading"),
                     ("c", "Reading Road, Reading"), ("d", "Springhill Retail Park, Reading"),
                     ("s", "Services, Reading"), ("e", "Doncaster Road, Selby")]
        let stations = sites.map { id, address in
            """
            {"site_id": "\(id)", "brand": "ESSO", "address": "\(address)", "postcode": "RG1 1AA",
             "location": {"latitude": 51.45, "longitude": -0.97}, "prices": {"B7": 150.9}}
            """
        }
        let feed = Data(#"{"last_updated": "30/11/2025 11:00:00", "stations": [\#(stations.joined(separator: ","))]}"#.utf8)
        let parsed = try FeedParser().parse(feed, retailer: "esso", fetchedAt: Date())
        let names = Dictionary(uniqueKeysWithValues: parsed.stations.map { ($0.siteId, $0.name) })
        #expect(names["a"] == "Esso Arborfield Road")
        #expect(names["b"] == "Esso Oxford Road")
        #expect(names["c"] == "Esso Reading Road")
        #expect(names["d"] == "Esso Springhill Retail Park")
        // "Services" alone names no place: the shared name stays.
        #expect(names["s"] == "Esso Reading")
        // A name no other station has is unchanged.
        #expect(names["e"] == "Esso Selby")
    }
}
