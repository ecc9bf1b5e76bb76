import Foundation
import Messages

/// A finished fetch, passed from the fetch queue to the loop over inproc as frames:
/// `[ticket or "", retailer, url, "ok" | error code, body or error sentence]`.
struct FetchResultMessage {
    let ticket: UInt64?
    let retailer: String
    let url: String
    let outcome: Result<Data, FetchFailure>

    struct FetchFailure: Error, CustomStringConvertible {
        let description: String
        let code: ErrorCode
    }

    init(ticket: UInt64?, retailer: String, url: String, outcome: Result<Data, FetchFailure>) {
        self.ticket = ticket
        self.retailer = retailer
        self.url = url
        self.outcome = outcome
    }

    init?(frames: [Data]) {
        guard frames.count == 5 else { return nil }
        let text = { (data: Data) in String(decoding: data, as: UTF8.self) }
        ticket = UInt64(text(frames[0]))
        retailer = text(frames[1])
        url = text(frames[2])
        let status = text(frames[3])
        outcome = status == "ok" ? .success(frames[4])
            : .failure(FetchFailure(description: text(frames[4]), code: ErrorCode(rawValue: status) ?? .unavailable))
    }

    func frames() -> [Data] {
        let status: String, body: Data
        switch outcome {
        case .success(let data): (status, body) = ("ok", data)
        case .failure(let failure): (status, body) = (failure.code.rawValue, Data(failure.description.utf8))
        }
        return [Data((ticket.map(String.init) ?? "").utf8), Data(retailer.utf8), Data(url.utf8),
                Data(status.utf8), body]
    }
}
