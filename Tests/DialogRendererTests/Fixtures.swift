import DialogRenderer
import Foundation
import Testing
import Messages

/// Shared test data: the bundled templates, one station, and times written as ISO-8601 text.
enum Fixtures {
    /// The service's own handler over the bundled templates (built once; loading is checked by its own test).
    static let handler: RenderHandler = {
        do {
            return try DialogRendererService.makeHandler(templates: nil)
        } catch {
            fatalError("bundled templates do not load: \(error)")
        }
    }()

    static let tescoSelby = StationSummary(
        id: "tesco/2567", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
        address: "Portholme Road, Selby", postcode: "YO8 4QH", lat: 53.768681, lng: -1.089549)

    /// The bundled en-GB file's contents, to build catalogs with extra locales.
    static var baseFile: Data {
        get throws {
            let directory = try #require(TemplateCatalog.bundledDirectory)
            return try Data(contentsOf: directory.appendingPathComponent("en-GB.json"))
        }
    }

    /// An ISO-8601 time with offset; a typo in a test is a test failure, not a crash.
    static func time(_ text: String) throws -> Date {
        try #require(JSONCoding.parseISO8601(text), "bad time \(text)")
    }

    /// A `found` (or `directions`) request for Tesco Selby: diesel at 139.9p, 2.3 miles.
    static func stationRequest(_ outcome: DialogOutcome = .found, updated: String = "2025-10-09T06:30:00+01:00",
                               now: String = "2025-10-09T12:00:00+01:00", distanceMiles: Double = 2.3,
                               pricePence: Double = 139.9, unit: DistanceUnit? = nil,
                               locale: String? = nil) throws -> RenderRequest {
        RenderRequest(outcome: outcome, locale: locale, now: try time(now), fuel: "B7", station: tescoSelby,
                      pricePence: pricePence, distanceMiles: distanceMiles, updated: try time(updated), unit: unit)
    }

    /// Renders with the bundled templates.
    static func render(_ request: RenderRequest) throws -> RenderReply {
        try handler.render(request)
    }
}
