import Messages

/// One locale's texts (en-GB behind them) compiled once at start-up into tables indexed by
/// outcome, fuel, unit and month: a render looks nothing up by name. A class, so a render holds
/// the tables with one reference.
final class LocalePhrases: Sendable {
    let dialog: [CompiledTemplate]
    /// The short answer, for the outcomes that have one.
    let value: [CompiledTemplate?]
    let snippetTitle: CompiledTemplate
    let snippetSubtitle: CompiledTemplate
    let snippetFreshness: CompiledTemplate
    let staleNote: CompiledTemplate
    let outlierLowNote: CompiledTemplate
    let outlierLowAfterStaleNote: CompiledTemplate?
    let outlierHighNote: CompiledTemplate
    let defaultSettingsNote: CompiledTemplate
    let largestRadiusNote: CompiledTemplate?
    let passedOverNote: CompiledTemplate?
    let freshnessToday: CompiledTemplate
    let freshnessYesterday: CompiledTemplate
    let freshnessOlder: CompiledTemplate
    let placeCurrent: CompiledTemplate
    let placeHourAgo: CompiledTemplate
    let placeHoursAgo: CompiledTemplate
    let placeYesterday: CompiledTemplate
    let placeEarlier: CompiledTemplate
    let time: CompiledTemplate
    let midnight: CompiledTemplate
    let noon: CompiledTemplate
    let amMarker: CompiledTemplate
    let pmMarker: CompiledTemplate
    let date: CompiledTemplate
    let dateWithYear: CompiledTemplate
    /// January first.
    let months: [CompiledTemplate]
    let decimalSeparator: CompiledTemplate
    let price: CompiledTemplate
    let spokenFuel: [CompiledTemplate]
    let fuelTitle: [CompiledTemplate]
    let unitName: [CompiledTemplate]
    let distanceOne: [CompiledTemplate]
    let distanceOther: [CompiledTemplate]
    let distanceLessThan: [CompiledTemplate]

    /// The compiled texts.
    let pool: TemplatePool

    /// Compiles `templates` (a locale's own with en-GB's behind them), `jsonEscaped` or not (see
    /// `TemplatePool`). A required key that is missing, which the catalog's checks rule out,
    /// renders as nothing.
    init(templates: [String: Template], jsonEscaped: Bool) {
        let keys = TemplateKeys.all.keys.sorted()
        var compiled: [CompiledTemplate] = []
        pool = TemplatePool(keys.map { templates[$0] ?? Self.empty }, jsonEscaped: jsonEscaped, compiled: &compiled)
        let byKey = Dictionary(uniqueKeysWithValues: zip(keys, compiled))
        func required(_ key: String) -> CompiledTemplate { byKey[key] ?? .empty }
        func optional(_ key: String) -> CompiledTemplate? { templates[key] == nil ? nil : required(key) }
        /// One template per case, at the case's `index` (which numbers the cases from 0).
        func table<Case>(_ cases: [Case], _ index: (Case) -> Int, _ key: (Case) -> String) -> [CompiledTemplate] {
            var table = [CompiledTemplate](repeating: .empty, count: cases.count)
            for item in cases { table[index(item)] = required(key(item)) }
            return table
        }
        dialog = table(DialogOutcome.allCases, \.index, TemplateKeys.dialog)
        var value = [CompiledTemplate?](repeating: nil, count: DialogOutcome.allCases.count)
        for outcome in DialogOutcome.allCases { value[outcome.index] = optional(TemplateKeys.value(outcome)) }
        self.value = value
        snippetTitle = required(TemplateKeys.snippetTitle)
        snippetSubtitle = required(TemplateKeys.snippetSubtitle)
        snippetFreshness = required(TemplateKeys.snippetFreshness)
        staleNote = required(TemplateKeys.staleNote)
        outlierLowNote = required(TemplateKeys.outlierLowNote)
        outlierLowAfterStaleNote = optional(TemplateKeys.outlierLowAfterStaleNote)
        outlierHighNote = required(TemplateKeys.outlierHighNote)
        defaultSettingsNote = required(TemplateKeys.defaultSettingsNote)
        largestRadiusNote = optional(TemplateKeys.largestRadiusNote)
        passedOverNote = optional(TemplateKeys.passedOverNote)
        freshnessToday = required(TemplateKeys.freshnessToday)
        freshnessYesterday = required(TemplateKeys.freshnessYesterday)
        freshnessOlder = required(TemplateKeys.freshnessOlder)
        placeCurrent = required(TemplateKeys.placeCurrent)
        placeHourAgo = required(TemplateKeys.placeHourAgo)
        placeHoursAgo = required(TemplateKeys.placeHoursAgo)
        placeYesterday = required(TemplateKeys.placeYesterday)
        placeEarlier = required(TemplateKeys.placeEarlier)
        time = required(TemplateKeys.time)
        midnight = required(TemplateKeys.midnight)
        noon = required(TemplateKeys.noon)
        amMarker = required(TemplateKeys.amMarker)
        pmMarker = required(TemplateKeys.pmMarker)
        date = required(TemplateKeys.date)
        dateWithYear = required(TemplateKeys.dateWithYear)
        months = (1...12).map { required(TemplateKeys.month($0)) }
        decimalSeparator = required(TemplateKeys.decimalSeparator)
        price = required(TemplateKeys.price)
        spokenFuel = table(FuelCode.allCases, \.index, TemplateKeys.spokenFuel)
        fuelTitle = table(FuelCode.allCases, \.index, TemplateKeys.fuelTitle)
        unitName = table(DistanceUnit.allCases, \.index, TemplateKeys.unitName)
        distanceOne = table(DistanceUnit.allCases, \.index, TemplateKeys.distanceOne)
        distanceOther = table(DistanceUnit.allCases, \.index, TemplateKeys.distanceOther)
        distanceLessThan = table(DistanceUnit.allCases, \.index, TemplateKeys.distanceLessThan)
    }

    private static let empty: Template = {
        do { return try Template(parsing: "") } catch { preconditionFailure("an empty template parses") }
    }()
}
