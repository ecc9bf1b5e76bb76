import Glibc
import ServiceTesting
import Testing
import ZeroMQ

/// The tests' endpoint that nobody serves stays that way for the whole run.
struct UnservedEndpointTests {
    @Test func itsPort_cannotBeBoundByAService() throws {
        let endpoint = try unservedEndpoint()
        let service = try Socket(Context(), .router)
        defer { service.close() }
        #expect(throws: ZMQError.self) { try service.bind(endpoint) }
    }

    @Test func eachCall_givesAnotherPort() throws {
        let endpoints = try (0..<5).map { _ in try unservedEndpoint() }
        #expect(Set(endpoints).count == 5, "\(endpoints)")
        #expect(endpoints.allSatisfy { $0.hasPrefix("tcp://127.0.0.1:") })
    }

    @Test func aConnection_isRefusedAtOnce() throws {
        let endpoint = try unservedEndpoint()
        let port = try #require(UInt16(endpoint.split(separator: ":").last ?? ""))
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let failure = errno
        #expect(result == -1 && failure == ECONNREFUSED, "connect gave \(result), errno \(failure)")
    }
}
