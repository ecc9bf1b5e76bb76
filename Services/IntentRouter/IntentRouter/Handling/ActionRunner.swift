import Foundation
import Messages

/// The handle stage: runs an action against the backends without ever blocking the loop.
/// Every call has the ask's data deadline; every failure becomes an outcome the user hears.
final class ActionRunner {
    let backends: Backends

    init(backends: Backends) {
        self.backends = backends
    }

    func run(_ action: Action, _ ask: AskContext, done: @escaping (Handled) -> Void) {
        switch action {
        case .findCheapest(let fuel, let directions, let within):
            findStation(fuel, nearest: false, directions: directions, within: within, ask, done: done)
        case .findNearest(let fuel, let directions, let within):
            findStation(fuel, nearest: true, directions: directions, within: within, ask, done: done)
        case .setRadius(.clear):
            setRadius(.clear, ask, done: done)
        case .setRadius(.set(let radius)):
            if let miles = radius.explicitMiles { return setRadius(.set(miles), ask, done: done) }
            // A bare number is in the user's unit: read it (with the data deadline: a change of
            // settings need not hurry), then check the range in miles. Without the unit nothing is
            // guessed: a guess could store 10 km as 10 miles.
            backends.location.call(.preferencesGet, UserRequest(user: ask.user), as: Preferences.self,
                                   deadline: ask.dataDeadline) { [self] result in
                guard case .success(let preferences) = result else {
                    return done(Handled(.failure, RenderRequest(outcome: .settingsUnavailable)))
                }
                let unit = radius.unit(or: preferences.unit)
                let miles = radius.miles(usersUnit: unit)
                guard Preferences.radiusRange.contains(miles) else {
                    return done(Handled(.failure, RenderRequest(outcome: .radiusOutOfRange, radiusMiles: miles,
                                                                unit: unit)))
                }
                setRadius(.set(miles), ask, done: done)
            }
        case .setUnit(let update):
            backends.location.call(.preferencesSet, PreferencesUpdate(user: ask.user, unit: update),
                                   as: Preferences.self, deadline: ask.dataDeadline) { result in
                done(Self.settingOutcome(result, outcome: update == .clear ? .unitCleared : .unitSet))
            }
        case .readSettings:
            // Not the defaults when location-cache cannot say: that would be a wrong answer.
            backends.location.call(.preferencesGet, UserRequest(user: ask.user), as: Preferences.self,
                                   deadline: ask.dataDeadline) { result in
                // A question changes nothing: not "so nothing has changed".
                done(Self.settingOutcome(result, outcome: .settingsRead, unreachable: .settingsUnreadable,
                                         unanswered: .settingsUnreadable))
            }
        case .directionsTo(let answered):
            var render = answered
            render.outcome = answered.outcome == .nearestFound ? .nearestDirections
                : answered.outcome == .found ? .directions : answered.outcome
            render.defaultSettings = nil  // no search, no settings read: the answer said it already
            done(Handled(.success, render))
        case .sayAgain(let answered):
            done(Handled(.success, answered))
        case .forgetLocation:
            backends.location.call(.locationForget, UserRequest(user: ask.user), as: ForgetReply.self,
                                   deadline: ask.dataDeadline) { result in
                switch result {
                case .success: done(Handled(.success, RenderRequest(outcome: .forgotten)))
                // Sent but not answered in time: it may have been forgotten, so neither is claimed.
                case .failure(let error) where error.code == .timeout:
                    done(Handled(.failure, RenderRequest(outcome: .forgetUnconfirmed)))
                // Says the location could not be reached, so nobody thinks it was forgotten.
                case .failure: done(Handled(.failure, RenderRequest(outcome: .locationUnavailable)))
                }
            }
        }
    }

    /// Stores the radius in miles; the reply names the miles stored (a bare number's reading).
    private func setRadius(_ update: SettingUpdate<Double>, _ ask: AskContext, done: @escaping (Handled) -> Void) {
        backends.location.call(.preferencesSet, PreferencesUpdate(user: ask.user, radiusMiles: update),
                               as: Preferences.self, deadline: ask.dataDeadline) { result in
            var handled = Self.settingOutcome(result, outcome: update == .clear ? .radiusCleared : .radiusSet)
            if case .set(let miles) = update { handled.parameters = ["miles": .number(SpokenRadius.shown(miles))] }
            done(handled)
        }
    }

    /// The words of a prompt that gives the radius limits, in the user's unit (miles when
    /// location-cache cannot say in time); other prompts as they are.
    func render(_ prompt: Prompt, _ ask: AskContext, done: @escaping (RenderRequest) -> Void) {
        var render = RenderRequest(outcome: prompt.outcome, radiusMiles: prompt.radiusMiles, unit: prompt.unit,
                                   word: prompt.word)
        guard prompt.unit == nil, prompt.speaksRadiusLimits else { return done(render) }
        readPreferences(ask) { preferences in
            render.unit = preferences.unit
            done(render)
        }
    }

    /// Stores a location the ask carried as the user's last-known one. With `preferences`, the
    /// reply's preferences are passed on (nil when the put failed); without, nobody waits for it.
    func storeLocation(_ location: Coordinate, _ ask: AskContext, preferences: ((Preferences?) -> Void)? = nil) {
        let request = LocationPutRequest(user: ask.user, lat: location.lat, lng: location.lng)
        guard let preferences else {
            // Nobody reads the reply, so it is not decoded either.
            return backends.location.send(.locationPut, request, deadline: ask.dataDeadline) { _ in }
        }
        backends.location.call(.locationPut, request, as: LocationPutReply.self,
                               deadline: ask.preferencesDeadline) { result in
            preferences((try? result.get())?.preferences)
        }
    }

    /// Whether the ask's step stores the location the ask carried itself (so the caller need not).
    static func storesLocation(_ step: Decision.Step) -> Bool {
        if case .handle(.findCheapest) = step { return true }
        if case .handle(.findNearest) = step { return true }
        return false
    }

    /// `unreachable` when the call could not be sent (nothing changed); `unanswered` when it was
    /// sent and no answer came in time (the change may have been made: not "nothing has changed").
    static func settingOutcome(_ result: Result<Preferences, ServiceError>, outcome: DialogOutcome,
                               unreachable: DialogOutcome = .settingsUnavailable,
                               unanswered: DialogOutcome = .settingsUnconfirmed) -> Handled {
        switch result {
        case .success(let preferences):
            return Handled(.success, RenderRequest(outcome: outcome, radiusMiles: preferences.radiusMiles,
                                                   unit: preferences.unit))
        // Unreachable or silent: say so, rather than "something went wrong".
        case .failure(let error) where error.code == .unavailable:
            return Handled(.failure, RenderRequest(outcome: unreachable))
        case .failure(let error) where error.code == .timeout:
            return Handled(.failure, RenderRequest(outcome: unanswered))
        case .failure:
            return Handled(.failure, RenderRequest(outcome: .failure))
        }
    }

    // MARK: - CheapestFuel / NearestFuel and their directions

    /// Location and preferences in parallel, then the lookup (the cheapest, or the `nearest`):
    /// within the search's own radius (a bare number read in the user's unit; the answer then in
    /// the unit it was said in), else the user's for the cheapest and the farthest any search
    /// goes for the nearest (the nearest is the nearest: 11 miles off in mid-Wales, it was
    /// "nothing within 5 miles").
    private func findStation(_ fuel: FuelCode, nearest: Bool, directions: Bool, within: SpokenRadius?,
                             _ ask: AskContext, done: @escaping (Handled) -> Void) {
        let gathered = Gathered { [backends] place, settings in
            let stored = settings.preferences
            var preferences = stored
            if let within {
                let miles = within.miles(usersUnit: stored.unit)
                if !settings.read, within.explicitMiles == nil, !Preferences.radiusRange.contains(miles) {
                    // "Within 60" without the user's unit: too far in miles, near enough in
                    // kilometres. Not refused, nor searched, on a guess.
                    return done(Handled(.failure, RenderRequest(outcome: .settingsUnreadable)))
                }
                guard Preferences.radiusRange.contains(miles) else {
                    return done(Handled(.failure, RenderRequest(outcome: .radiusOutOfRange, radiusMiles: miles,
                                                                unit: within.unit(or: stored.unit))))
                }
                preferences.radiusMiles = miles
                preferences.unit = within.unit(or: stored.unit)
            } else if nearest {
                preferences.radiusMiles = Preferences.radiusRange.upperBound
            }
            switch place {
            case .unknown(let outcome):
                done(Handled(.failure, RenderRequest(outcome: outcome, fuel: fuel.rawValue)))
            case .known(let point, _) where !UKArea.includesUser(at: point):
                // Paris or 0,0: not "nothing in range", which would suggest a wider radius.
                done(Handled(.failure, RenderRequest(outcome: .outsideCoverage, fuel: fuel.rawValue)))
            case .known(let point, let observedAt):
                // A feed that stopped updating does not win the cheapest over up-to-date prices
                // (fuel-lookup decides); the nearest is the nearest.
                let request = LookupRequest(fuel: fuel.rawValue, lat: point.lat, lng: point.lng,
                                            radiusMiles: preferences.radiusMiles, limit: 1,
                                            preferFresh: nearest ? nil : true)
                backends.lookup.call(nearest ? .lookupNearest : .lookupCheapest, request, as: LookupReply.self,
                                     deadline: ask.dataDeadline, retryable: true) { result in
                    let found: DialogOutcome = switch (nearest, directions) {
                    case (false, false): .found
                    case (false, true): .directions
                    case (true, false): .nearestFound
                    case (true, true): .nearestDirections
                    }
                    // The answer leans on the defaults (radius, unit) where the user's could not be
                    // read: it says so, unless the search said its own radius with its unit.
                    var handled = Self.lookupOutcome(result, fuel: fuel, found: found, preferences: preferences,
                                                     locationAt: observedAt,
                                                     defaultSettings: !settings.read && within?.explicitMiles == nil)
                    if !settings.read { handled.degraded.append(Backends.locationCacheName) }
                    done(handled)
                }
            }
        }
        if let location = ask.decision.location {
            gathered.place = .known(location, observedAt: nil)
        } else {
            backends.location.call(.locationGet, UserRequest(user: ask.user), as: LocationReply.self,
                                   deadline: ask.dataDeadline) { result in
                switch result {
                case .success(let reply):
                    gathered.place = .known(Coordinate(lat: reply.lat, lng: reply.lng), observedAt: reply.at)
                case .failure(let error) where error.code == .notFound: gathered.place = .unknown(.noLocation)
                case .failure: gathered.place = .unknown(.locationUnavailable)
                }
            }
        }
        if let reported = ask.reportedLocation {
            // One call stores the position the ask carried and answers with the preferences.
            // Without an answer in time (location-cache down or hanging) the defaults serve: the
            // user still hears the cheapest fuel, not a failure.
            storeLocation(reported, ask) { (preferences: Preferences?) in
                gathered.settings = SearchSettings(preferences ?? .default, read: preferences != nil)
            }
        } else {
            backends.location.call(.preferencesGet, UserRequest(user: ask.user), as: Preferences.self,
                                   deadline: ask.preferencesDeadline) { result in
                let read = try? result.get()
                gathered.settings = SearchSettings(read ?? .default, read: read != nil)
            }
        }
    }

    /// The user's preferences, or the defaults when location-cache cannot say.
    private func readPreferences(_ ask: AskContext, _ done: @escaping (Preferences) -> Void) {
        backends.location.call(.preferencesGet, UserRequest(user: ask.user), as: Preferences.self,
                               deadline: ask.preferencesDeadline) { result in
            done((try? result.get()) ?? .default)
        }
    }

    /// The outcome of a lookup; `locationAt` is when the stored location searched from was
    /// observed (nil: the ask's own), passed on to the answers that speak of where the user is;
    /// `defaultSettings` that the preferences are the defaults, the user's unread, which the
    /// answers of the search say.
    static func lookupOutcome(_ result: Result<LookupReply, ServiceError>, fuel: FuelCode, found: DialogOutcome,
                              preferences: Preferences, locationAt: Date?, defaultSettings: Bool = false) -> Handled {
        var render = RenderRequest(outcome: .pricesUnavailable, fuel: fuel.rawValue,
                                   radiusMiles: preferences.radiusMiles, unit: preferences.unit)
        switch result {
        case .failure(let error) where error.code == .badRequest:
            render.outcome = .failure
            return Handled(.failure, render)
        case .failure:
            return Handled(.failure, render)
        case .success(let reply) where reply.indexedStations == 0:
            render.outcome = .noPrices
            return Handled(.failure, render)
        case .success(let reply):
            guard let best = reply.results.first, let price = best.pricePence else {
                render.outcome = .nothingInRange
                render.locationAt = locationAt
                render.defaultSettings = defaultSettings ? true : nil
                return Handled(.success, render)
            }
            render.outcome = found
            render.station = best.station
            render.pricePence = price
            render.priceOutlier = best.priceOutlier
            render.distanceMiles = best.distanceMiles
            render.updated = best.updated
            render.locationAt = locationAt
            render.defaultSettings = defaultSettings ? true : nil
            // A cheaper price from a lagging feed, passed over for the up-to-date ones: named.
            if let passed = reply.passedOver, let pence = passed.pricePence, pence < price {
                render.passedOver = PassedOverPrice(station: passed.station.name, pricePence: pence, updated: passed.updated)
            }
            return Handled(.success, render)
        }
    }
}

/// Where the user is (and, for a stored location, when they were seen there), or the outcome
/// that says why that is not known.
private enum Place {
    case known(Coordinate, observedAt: Date?)
    case unknown(DialogOutcome)
}

/// The user's preferences for a search, or the defaults when location-cache could not say in time
/// (`read` false: the answer says so).
private struct SearchSettings {
    let preferences: Preferences
    let read: Bool

    init(_ preferences: Preferences, read: Bool) {
        self.preferences = preferences
        self.read = read
    }
}

/// Waits for the location and the settings, then calls `ready` once.
private final class Gathered {
    var place: Place? { didSet { fireIfReady() } }
    var settings: SearchSettings? { didSet { fireIfReady() } }
    private var ready: ((Place, SearchSettings) -> Void)?

    init(_ ready: @escaping (Place, SearchSettings) -> Void) {
        self.ready = ready
    }

    private func fireIfReady() {
        guard let place, let settings, let ready else { return }
        self.ready = nil
        ready(place, settings)
    }
}

