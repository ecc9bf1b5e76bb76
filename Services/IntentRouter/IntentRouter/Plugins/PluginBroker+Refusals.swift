import Foundation
import Messages
import ServiceKit

/// Frames the broker refuses back to their sender: replies it cannot read, answers it cannot use,
/// and frames whose `"v"` is not the protocol version it speaks.
extension PluginBroker {
    /// A reply that names a call of this instance but cannot be read: the call fails at once (the
    /// user hears that the service gave an answer the router cannot use, instead of waiting for the
    /// deadline), and the instance is told why, as is the log.
    func unreadableReply(_ payload: Data, from instance: PluginInstance, routingID: Data, _ why: String) {
        guard let id = Self.replyID(payload), let call = pending[id], call.instance === instance else {
            return ignore(payload, "unreadable plugin.reply")
        }
        pending[id] = nil
        instance.inFlight -= 1
        unreadableReplies += 1
        refuseReply(id, of: instance, routingID: routingID, "plugin.reply \(id) could not be read: \(why)",
                    event: "plugin reply unreadable")
        call.complete(.failure(.unreadable))
    }

    /// A reply that was read but cannot be used (a bad `opensURL`, an undeclared parameter, bad
    /// options, a value of the wrong type): the dialogue has failed the ask; the instance is told
    /// why, as for an unreadable reply.
    func unusableAnswer(_ answer: PluginAnswer, _ why: String) {
        refuseReply(answer.id, of: answer.instance, routingID: answer.instance.routingID,
                    "plugin.reply \(answer.id) cannot be used: \(why)", event: "plugin reply unusable")
    }

    /// A frame whose `"v"` is missing or not the number 1: refused with `bad_request` and not acted
    /// on; a reply that names a request in flight fails it at once, as an unreadable one does.
    func wrongVersion(_ kind: PluginMessageType, _ version: JSONValue?, _ payload: Data, from known: PluginInstance?,
                      routingID: Data) {
        let why = Self.versionFault(version)
        if kind == .reply, let known, let id = Self.replyID(payload), pending[id]?.instance === known {
            return unreadableReply(payload, from: known, routingID: routingID, why)
        }
        refuse(routingID, .bad("\(kind.rawValue): \(why)"), service: known?.service ?? "-",
               instance: known?.instance ?? "-")
    }

    /// Why a frame's `"v"` is refused, in the words the service gets.
    static func versionFault(_ version: JSONValue?) -> String {
        switch version {
        case nil:
            return "\"v\" must be \(wireVersion) (it is missing)"
        case .number(let number)?:
            let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
            return "\"v\" must be \(wireVersion): protocol version \(text) is not spoken here "
                + "(this router speaks \(wireVersion))"
        case let other?:
            let text = (try? JSONCoding.encode(other)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            return "\"v\" must be \(wireVersion), the number, not \(text.prefix(40))"
        }
    }

    /// Logs (at most 20 lines a second) and sends `plugin.refused` `bad_request` naming request `id`.
    private func refuseReply(_ id: String, of instance: PluginInstance, routingID: Data, _ reason: String,
                             event: String) {
        if replyLines.admit(logging: logger) {
            logger.notice("\(event)", metadata: ["service": instance.service, "instance": instance.instance,
                                                 "reason": reason])
        }
        send(routingID, PluginRefused(code: "bad_request", reason: reason, reregister: false, id: id))
    }

    /// The `id` of a `plugin.reply`, whatever else it holds.
    static func replyID(_ payload: Data) -> String? {
        (try? JSONCoding.decode(PluginReplyID.self, from: payload, allowingRepeatedNames: true))?.id
    }
}

/// Just the id of a `plugin.reply`, to find the call a reply that cannot be read was meant for.
private struct PluginReplyID: Decodable {
    let id: String
}
