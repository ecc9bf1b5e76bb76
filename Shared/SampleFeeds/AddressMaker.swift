import Foundation

/// A site's address as its retailer would write it, its postcode and the place name it is known by.
struct SiteAddress: Sendable {
    var address: String
    var postcode: String
    /// Town, village or (for motorway sites) nearest town: used in the station's spoken name.
    var locality: String
}

/// Writes plausible UK addresses and postcodes in each retailer's style.
struct AddressMaker: Sendable {
    let world: SampleWorld

    func make(for placement: Placement, style: AddressStyle, isSupermarket: Bool,
              random: inout SeededRandom) -> SiteAddress {
        let town = world.towns[placement.townIndex]
        let locality = placement.kind == .rural ? villageName(in: town.nation, random: &random) : town.name
        let postcode = makePostcode(for: town, at: placement, random: &random)
        var street = streetName(near: placement.townIndex, random: &random)
        if let motorway = placement.motorway {
            street = "\(town.name) Services, \(motorway)"
        } else if random.chance(0.35) {
            street = "\(random.integer(in: 1...400)) \(street)"
        }
        let district = random.pick(NamePools.districts)
        let address: String
        switch style {
        case .streetTown:
            if isSupermarket && placement.motorway == nil && random.chance(0.4) {
                address = "\(district) \(random.pick(NamePools.retailPlaces)), \(locality)"
            } else {
                address = "\(street), \(locality)"
            }
        case .streetTownCounty:
            address = "\(street), \(locality), \(town.county)"
        case .tescoNoCommas:
            let plain = street.replacingOccurrences(of: ",", with: "")
            address = "Tesco \(random.pick(NamePools.tescoFormats)) \(plain) \(district) \(locality)"
        case .groupPrefixed(let prefix):
            address = "\(prefix) \(random.chance(0.5) ? district : locality), \(street), \(locality)"
        case .upperStreetTown:
            address = "\(street), \(locality)".uppercased()
        case .upperStreetOnly:
            address = street.uppercased()
        case .streetOnly:
            address = street
        case .upperWithPostcode:
            address = "\(street), \(locality), \(postcode)".uppercased()
        case .trailingFullStop:
            address = "\(street), \(locality)."
        case .serviceArea:
            if let motorway = placement.motorway {
                address = "\(town.name) Service Area, \(motorway) Motorway, \(locality), \(town.county), \(postcode)"
            } else {
                address = "\(street), \(locality), \(town.county), \(postcode)"
            }
        }
        return SiteAddress(address: address, postcode: postcode, locality: locality)
    }

    /// `YO8 9EG`: the town's area and a district in its range, then a digit and two letters.
    private func makePostcode(for town: UKTown, at placement: Placement, random: inout SeededRandom) -> String {
        let area = town.postcodeAreas.count == 6
            ? compassArea(town, placement)
            : (town.postcodeAreas.isEmpty ? "ZZ" : random.pick(town.postcodeAreas))
        let district = random.integer(in: town.districts)
        let letters = NamePools.inwardLetters
        return "\(area)\(district) \(random.below(10))\(random.pick(letters))\(random.pick(letters))"
    }

    /// For a town with six areas in compass order (N, NW, W, SW, SE, E, as London's), the area on
    /// the site's side of the centre.
    private func compassArea(_ town: UKTown, _ placement: Placement) -> String {
        let north = placement.latitude - town.latitude
        let east = (placement.longitude - town.longitude) * LocalGeometry.cosine(degrees: town.latitude)
        let sector: Int
        if north > 0 && abs(east) < north {
            sector = east < 0 ? 1 : 0
        } else if north < 0 && abs(east) < -north {
            sector = east < 0 ? 3 : 4
        } else {
            sector = east < 0 ? 2 : 5
        }
        return town.postcodeAreas[sector]
    }

    /// A street: often named after a nearby town (`Doncaster Road`), else a common name.
    private func streetName(near townIndex: Int, random: inout SeededRandom) -> String {
        let neighbours = world.neighbours[townIndex]
        if !neighbours.isEmpty && random.chance(0.35) {
            return "\(world.towns[random.pick(neighbours)].name) Road"
        }
        return random.pick(NamePools.streets)
    }

    private func villageName(in nation: UKNation, random: inout SeededRandom) -> String {
        let starts = NamePools.villageStarts[nation] ?? ["Ash"]
        let ends = NamePools.villageEnds[nation] ?? ["ton"]
        let name = random.pick(starts) + random.pick(ends)
        return random.chance(0.15) ? (random.chance(0.5) ? "Upper " : "Little ") + name : name
    }
}
