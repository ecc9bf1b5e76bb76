#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A loopback endpoint nobody serves, for tests of what a client does when nothing answers.
///
/// The port is bound and never listened on, and stays bound until the test process exits: a
/// connection to it is refused at once, as to a free port, and no other socket can take it
/// meanwhile (a port bound and released could be given to a service another test starts, which
/// would then answer).
public func unservedEndpoint() throws -> String {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw UnservedEndpointError(call: "socket", errno: errno) }
    // No SO_REUSEADDR: with it, a listener that sets it too (libzmq does) could share the port.
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else {
        let failure = errno
        close(descriptor)
        throw UnservedEndpointError(call: "bind", errno: failure)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else {
        let failure = errno
        close(descriptor)
        throw UnservedEndpointError(call: "getsockname", errno: failure)
    }
    heldPorts.withLock { $0.append(descriptor) }
    return "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
}

/// The descriptors holding unserved ports, open until the process exits.
private let heldPorts = Mutex<[Int32]>([])

struct UnservedEndpointError: Error, CustomStringConvertible {
    let call: String
    let errno: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
