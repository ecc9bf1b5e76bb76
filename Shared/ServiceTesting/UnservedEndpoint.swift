import ZeroMQ

/// A loopback endpoint nobody serves: an ephemeral port bound, then released. For tests of what a
/// client does when nothing answers (no fixed port that something else might hold).
public func unservedEndpoint() throws -> String {
    let socket = try Socket(Context(), .router)
    let endpoint = try socket.bind("tcp://127.0.0.1:*")
    socket.close()
    return endpoint
}
