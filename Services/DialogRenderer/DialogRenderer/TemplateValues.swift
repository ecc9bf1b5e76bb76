/// The values a template's placeholders are filled with: a handful of name-value pairs, looked
/// up by comparing names (short strings, compared in place) rather than by hashing them.
/// Written like a dictionary: `["time": "6:30 AM"]`, `values["price"] = "£1.399"`.
public struct TemplateValues: ExpressibleByDictionaryLiteral, Sendable {
    private var pairs: [(name: String, value: String)]

    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The value for `name` (the first given), or nil; setting a name again replaces its value.
    public subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            let index = pairs.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): pairs[index].value = value
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let value?): pairs.append((name: name, value: value))
            case (nil, nil): break
            }
        }
    }
}
