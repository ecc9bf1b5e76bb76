/// A template folder or file that cannot be used: which file, which key, what is wrong.
///
/// The service checks every template at start-up and exits 1 with this as one line.
public struct TemplateError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file name (`en-GB.json`), or nil for a problem with the folder.
    public let file: String?
    /// The dotted key (`outcomes.found.dialog`), or nil for a problem with the whole file.
    public let key: String?
    public let problem: String

    public init(file: String? = nil, key: String? = nil, _ problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    public var description: String {
        "templates: " + ([file, key].compactMap { $0 } + [problem]).joined(separator: ": ")
    }
}
