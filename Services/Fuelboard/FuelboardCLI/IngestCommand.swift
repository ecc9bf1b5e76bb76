import Foundation
import Messages
import ServiceKit

/// `fuelboard ingest FILE|DIR|URL [--retailer NAME]`: sends feeds to price-ingest.
enum IngestCommand {
    static let spec = (
        usage: "FILE|DIRECTORY|URL [--retailer NAME] | --remove NAME",
        summary: """
            Sends CMA price feeds to price-ingest. A file is sent inline; a directory sends every *.json
            file in it (each file's name is its retailer); an http(s):// or file:// URL is fetched by
            price-ingest itself. Prints one progress line per feed and a summary (a feed older than the one
            stored for its retailer replaces it, with an older_feed warning). --remove takes a retailer
            out of the store and every replica. Each feed waits up to 120 s for its reply (a URL's fetch
            included), or --timeout when given. Exits 1 when a feed failed (or --remove found no such
            retailer), 69 when price-ingest does not answer.
            """,
        options: [
            OptionSpec("--retailer", value: "NAME",
                       help: "the retailer (feed) name of one file or URL; default: the file name"),
            OptionSpec("--remove", value: "NAME", help: "remove this retailer's stations and feed record instead"),
        ]
    )

    struct Outcome: Codable {
        let source: String
        let retailer: String
        let reply: IngestFeedReply?
        let error: ServiceError?
        /// price-ingest did not answer (as opposed to answering with an error, such as a feed
        /// it could not fetch): only this makes the exit status 69.
        var unanswered = false
        /// Never sent: price-ingest had stopped answering before its turn.
        var notSent = false

        private enum CodingKeys: String, CodingKey { case source, retailer, reply, error }
    }

    /// How long each feed waits for price-ingest's reply without `--timeout`.
    static let defaultFeedTimeout: Duration = .seconds(120)

    static func run(_ cli: CLIContext) throws -> Int32 {
        if let retailer = cli.arguments.value("--remove") {
            guard cli.arguments.positionals.isEmpty, cli.arguments.value("--retailer") == nil else {
                throw ConfigurationError("--remove NAME takes nothing else (no FILE, DIRECTORY, URL or --retailer)")
            }
            return try remove(retailer, cli)
        }
        guard let target = cli.arguments.positionals.first, cli.arguments.positionals.count == 1 else {
            throw ConfigurationError("ingest needs exactly one FILE, DIRECTORY or URL (see --help)")
        }
        let jobs = try plan(target, retailer: cli.arguments.value("--retailer"))
        // A large feed may take price-ingest minutes, so each feed waits up to 120 s unless
        // --timeout is given (it was ignored: a script's bound did not hold); a silent endpoint
        // is found by a ping within --timeout instead.
        guard cli.answers(cli.topology.ingest) else {
            CLIContext.printStatus("fuelboard: price-ingest does not answer at \(cli.topology.ingest) within "
                + "--timeout (down, or busy ingesting a large feed: raise --timeout)")
            return ServiceMain.ExitCode.unavailable
        }
        let wait = cli.arguments.value("--timeout") != nil ? cli.timeout : Self.defaultFeedTimeout
        let client = try cli.client(cli.topology.ingest, timeout: wait, retries: 0)
        var outcomes: [Outcome] = []
        for (number, job) in jobs.enumerated() {
            let outcome = send(job, client)
            outcomes.append(outcome)
            CLIContext.printStatus("[\(number + 1)/\(jobs.count)] " + describe(outcome))
            // price-ingest gone (crashed, stopped): the feeds left are not sent, each to wait out
            // the long ingest timeout in turn.
            if outcome.unanswered, number + 1 < jobs.count,
               !cli.answers(cli.topology.ingest, within: min(cli.timeout, .seconds(2))) {
                let left = jobs[(number + 1)...]
                CLIContext.printStatus("fuelboard: price-ingest stopped answering at \(cli.topology.ingest); "
                    + "the \(left.count) feed(s) left were not sent")
                outcomes += left.map { Outcome(source: $0.source, retailer: $0.retailer, reply: nil,
                                               error: ServiceError(.unavailable, "not sent: price-ingest stopped answering"),
                                               unanswered: true, notSent: true) }
                break
            }
        }
        let stored = outcomes.compactMap(\.reply)
        let failed = outcomes.count - stored.count
        let notSent = outcomes.filter(\.notSent).count
        if cli.json {
            try cli.printJSON(outcomes)
        } else {
            let accepted = stored.map(\.accepted).reduce(0, +), rejected = stored.map(\.rejected).reduce(0, +)
            let unlocated = stored.map(\.withoutLocation).reduce(0, +)
            print("Ingested \(stored.count) of \(outcomes.count) feed(s): \(accepted) stations stored "
                + "(\(unlocated) without a usable location), \(rejected) records refused"
                + (failed > notSent ? "; \(failed - notSent) feed(s) failed" : "")
                + (notSent > 0 ? "; \(notSent) not sent" : "") + ".")
        }
        if failed == 0 { return ServiceMain.ExitCode.success }
        return outcomes.contains(where: \.unanswered) ? ServiceMain.ExitCode.unavailable : ServiceMain.ExitCode.failure
    }

    /// `--remove NAME`: one `ingest.remove`, its reply or error in one line.
    static func remove(_ retailer: String, _ cli: CLIContext) throws -> Int32 {
        let client = try cli.client(cli.topology.ingest)
        let reply: RemoveRetailerReply
        do {
            reply = try client.call(.ingestRemove, RemoveRetailerRequest(retailer: retailer), as: RemoveRetailerReply.self)
        } catch {
            return CLIContext.failed("remove", error)
        }
        if cli.json {
            try cli.printJSON(reply)
        } else {
            print("Removed \(reply.retailer): \(reply.stations) station(s), store version \(reply.version).")
            for warning in reply.warnings { CLIContext.printStatus("warning: " + warning) }
        }
        return ServiceMain.ExitCode.success
    }

    /// One feed to send: inline bytes or a URL for price-ingest to fetch.
    struct Job {
        let source: String
        let retailer: String
        let url: String?
        let file: URL?
    }

    static func plan(_ target: String, retailer: String?) throws -> [Job] {
        if target.contains("://") {
            guard let retailer else { throw ConfigurationError("--retailer is required with a URL") }
            return [Job(source: target, retailer: retailer, url: target, file: nil)]
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else {
            throw ConfigurationError("no such file or directory: \(target)")
        }
        if !isDirectory.boolValue {
            let url = URL(fileURLWithPath: target)
            return [Job(source: target, retailer: retailer ?? url.deletingPathExtension().lastPathComponent,
                        url: nil, file: url)]
        }
        if let retailer {
            // Every file would be stored as that one retailer, each replacing the last.
            throw ConfigurationError("--retailer \(retailer) names one feed's retailer; a directory's files are "
                + "named by their file names (leave --retailer out, or give one file)")
        }
        let directory = URL(fileURLWithPath: target, isDirectory: true)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension.lowercased() == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else { throw ConfigurationError("no *.json feed files in \(target)") }
        return files.map { Job(source: $0.path, retailer: $0.deletingPathExtension().lastPathComponent,
                               url: nil, file: $0) }
    }

    static func send(_ job: Job, _ client: RequestClient) -> Outcome {
        var sent = false
        do {
            let replyData: Data
            if let url = job.url {
                sent = true
                replyData = try client.callRaw(MessageType.ingestFeed.rawValue,
                                               rawBody: try JSONCoding.encode(IngestFeedRequest(retailer: job.retailer, url: url)))
            } else if let file = job.file {
                // Refused here, not sent: price-ingest would refuse it, and one over its request
                // limit (64 MiB) got a reply without an id, which left this waiting 120 s (QA).
                if let size = try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize,
                   size > IngestFeedRequest.maxFeedBytes {
                    throw ServiceError(.tooLarge, "\(file.lastPathComponent) is \(size) bytes, over the "
                        + "\(IngestFeedRequest.maxFeedBytes >> 20) MiB a feed may be")
                }
                var feed: Data
                do {
                    feed = try Data(contentsOf: file)
                } catch {
                    throw ServiceError.badRequest("cannot read \(FileErrorText.describe(error, path: file.path))")
                }
                // A byte order mark (a Windows editor's) is no JSON inside the request, where the feed
                // goes: it was refused "at byte 94" of the request, though a URL's feed is read with it.
                let mark = feed.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
                feed = Data(feed.dropFirst(mark))
                // Checked as price-ingest will, and said in the file's own bytes.
                if let failure = StrictJSON.check(feed) {
                    throw ServiceError.badRequest("\(file.lastPathComponent) is not JSON: \(failure.reason) at byte "
                        + "\(failure.offset + mark) of the file")
                }
                var body = Data(#"{"retailer":"#.utf8)
                body.append(try JSONCoding.encode(job.retailer))
                body.append(Data(#","feed":"#.utf8))
                body.append(feed)
                body.append(Data("}".utf8))
                sent = true
                replyData = try client.callRaw(MessageType.ingestFeed.rawValue, rawBody: body)
            } else {
                throw ServiceError(.internal, "nothing to send")
            }
            sent = false  // an answer came: any error from here on is price-ingest's
            let reply = try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: replyData)
            return Outcome(source: job.source, retailer: job.retailer, reply: try reply.result(), error: nil)
        } catch let error as ServiceError {
            return Outcome(source: job.source, retailer: job.retailer, reply: nil, error: error, unanswered: sent)
        } catch {
            return Outcome(source: job.source, retailer: job.retailer, reply: nil,
                           error: ServiceError(.internal, "unreadable reply: \(ServiceError.describe(error))"))
        }
    }

    static func describe(_ outcome: Outcome) -> String {
        guard let reply = outcome.reply else {
            return "\(outcome.retailer): FAILED \(outcome.error?.message ?? "") [\(outcome.error?.code.rawValue ?? "")]"
        }
        var line = "\(reply.retailer): \(reply.accepted) stored"
        if reply.withoutLocation > 0 { line += " (\(reply.withoutLocation) without usable location)" }
        line += ", \(reply.rejected) refused, version \(reply.version)"
        let warnings = reply.warningsByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !warnings.isEmpty { line += "; warnings: " + warnings.joined(separator: ", ") }
        return line
    }
}
