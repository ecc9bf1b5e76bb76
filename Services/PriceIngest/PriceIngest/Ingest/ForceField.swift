import Messages
import ServiceKit

/// The optional `"force"` member of an `ingest.feed` body: `true` applies the feed even when it is
/// older than the stored one (an operator restoring an older feed on purpose); absent, `false` or
/// `null` does not. Any other value is `bad_request`. Read from the checked frame, so a large inline
/// feed is not decoded a second time.
enum ForceField {
    static func read(from request: IncomingRequest) throws(ServiceError) -> Bool {
        var force = false
        _ = try request.forEachBodyMember { bytes, key, value throws(ServiceError) in
            guard key.matches("force") else { return }
            let text = bytes[value]
            if text.elementsEqual("true".utf8) {
                force = true
            } else if text.elementsEqual("false".utf8) || text.elementsEqual("null".utf8) {
                force = false
            } else {
                throw .badRequest("\"force\" must be true or false")
            }
        }
        return force
    }
}
