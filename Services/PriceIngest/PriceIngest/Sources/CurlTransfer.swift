import CCurl
import Foundation

/// One HTTP(S) GET through libcurl, its body kept only while it stays within a byte limit.
///
/// libcurl hands the body over as it arrives (after any gzip or deflate decoding), synchronously:
/// past `maxBytes` the transfer is aborted there and then, so memory stays bounded whatever the
/// server sends (a gzip that unpacks to a gigabyte, a body that never ends). URLSession on Linux
/// queues the data to its delegate and kept receiving meanwhile: price-ingest reached 3 GB.
/// Redirects are followed over http and https only; anything not a 200 is not read.
struct CurlTransfer {
    struct Outcome {
        /// The HTTP status (0 when none came).
        var status: Int
        var body: Data
        /// The body passed `maxBytes`, counted as it arrived or as announced.
        var tooLarge: Bool
        /// libcurl's failure (nil when the transfer completed), and whether it was a timeout.
        var error: String?
        var timedOut: Bool
        /// A redirect was not followed: to a scheme other than http(s), or past the fifth.
        var redirectRefused = false
    }

    let url: String
    let userAgent: String
    let accept: String
    let timeout: Duration
    let maxBytes: Int

    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    func run() -> Outcome {
        guard Self.initialised, let handle = curl_easy_init() else {
            return Outcome(status: 0, body: Data(), tooLarge: false, error: "libcurl could not start", timedOut: false)
        }
        defer { curl_easy_cleanup(handle) }
        let sink = BodySink(handle: handle, maxBytes: maxBytes)
        let headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Accept: \(accept)")
        defer { curl_slist_free_all(headers) }
        let milliseconds = max(1, timeout.wholeMilliseconds)
        _ = fb_curl_set_string(handle, CURLOPT_URL, url)
        _ = fb_curl_set_string(handle, CURLOPT_USERAGENT, userAgent)
        _ = fb_curl_set_pointer(handle, CURLOPT_HTTPHEADER, headers.map(UnsafeMutableRawPointer.init))
        _ = fb_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl can decode
        _ = fb_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = fb_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = fb_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = fb_curl_set_long(handle, CURLOPT_MAXREDIRS, 5)
        _ = fb_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        _ = fb_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        _ = fb_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)  // threads: no SIGALRM for name lookups
        _ = fb_curl_set_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes))  // an announced size
        let code = withExtendedLifetime(sink) { () -> CURLcode in
            _ = fb_curl_set_write(handle, { data, size, count, context in
                guard let data, let context else { return 0 }
                let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
                return sink.take(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
            }, Unmanaged.passUnretained(sink).toOpaque())
            return curl_easy_perform(handle)
        }
        let status = fb_curl_response_code(handle)
        let tooLarge = sink.tooLarge || code == CURLE_FILESIZE_EXCEEDED
        let failed = code != CURLE_OK && !sink.stoppedOnPurpose && !tooLarge
        return Outcome(status: Int(status), body: sink.body, tooLarge: tooLarge,
                       error: failed ? String(cString: curl_easy_strerror(code)) : nil,
                       timedOut: code == CURLE_OPERATION_TIMEDOUT,
                       redirectRefused: code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_TOO_MANY_REDIRECTS)
    }
}

/// Where libcurl's write callback puts the body: it refuses (stopping the transfer) a body that is
/// not a 200's or that passes the limit.
private final class BodySink {
    let handle: UnsafeMutableRawPointer
    let maxBytes: Int
    var body = Data()
    var tooLarge = false
    /// Stopped because the body is not wanted (not a 200).
    var stoppedOnPurpose = false

    init(handle: UnsafeMutableRawPointer, maxBytes: Int) {
        self.handle = handle
        self.maxBytes = maxBytes
    }

    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard fb_curl_response_code(handle) == 200 else {
            stoppedOnPurpose = true
            return false
        }
        guard body.count + bytes.count <= maxBytes else {
            tooLarge = true
            body = Data()
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}
