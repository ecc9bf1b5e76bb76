import CZeroMQ

/// The socket patterns the project uses.
public enum SocketType: Sendable {
    case req, rep, dealer, router, pub, sub, push, pull, pair

    var rawValue: Int32 {
        switch self {
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .dealer: ZMQ_DEALER
        case .router: ZMQ_ROUTER
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .pair: ZMQ_PAIR
        }
    }
}
