import Messages

/// Whether a fuel-lookup replica can answer lookups, read from its `sys.stats` details: it is
/// ready once it holds price-ingest's snapshot (`synced`); before that it answers lookups
/// `unavailable`. `fuelboard health` and `fuelboard stats` say it the same way.
enum LookupReadiness {
    /// nil when the replica is ready (or too old to say `synced`), else why it is not.
    static func notReadyReason(_ figures: StatsFigures) -> String? {
        guard figures.bool("synced") == false else { return nil }
        // Its snapshot request fails (--ingest at price-ingest's publisher, or at nothing): said with
        // its error, where "check --ingest-pub" pointed at the flag that was right (operator QA).
        if let error = figures.values["lastSyncError"]?.stringValue {
            return "no snapshot from price-ingest (\(error.prefix(100))): check --ingest"
        }
        // Not synced though price-ingest was heard (its snapshot) long ago: its publisher never was.
        if let silence = figures.number("ingestHeardSecondsAgo"), silence >= 5 {
            return "nothing ever from price-ingest's publisher: check --ingest-pub"
        }
        return "waiting for price-ingest's first snapshot"
    }
}
