/// Every request type the services know, in one place (never as literals at call sites).
public enum MessageType: String, Sendable, CaseIterable {
    case sysPing = "sys.ping"
    case sysStats = "sys.stats"
    case sysBatch = "sys.batch"

    case ingestFeed = "ingest.feed"
    case ingestSnapshot = "ingest.snapshot"
    case ingestStatus = "ingest.status"
    case ingestRemove = "ingest.remove"

    case lookupCheapest = "lookup.cheapest"
    case lookupNearest = "lookup.nearest"
    case stationGet = "station.get"

    case locationPut = "location.put"
    case locationGet = "location.get"
    case locationForget = "location.forget"
    case preferencesGet = "preferences.get"
    case preferencesSet = "preferences.set"

    case dialogRender = "dialog.render"

    case assistantAsk = "assistant.ask"
    case assistantRun = "assistant.run"
}

