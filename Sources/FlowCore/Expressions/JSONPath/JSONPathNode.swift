/// A node a ``JSONPathQuery`` selected: a value and where it is in the document.
package struct JSONPathNode: Sendable, Hashable {
    /// The value at ``path``.
    package var value: JSONValue
    /// Where the value is: the names and indexes from the document's root to it.
    package var path: Path

    /// The location of a node as a list of member names and array indexes, written as an RFC 9535 normalized
    /// path: `$['store']['book'][0]`.
    package struct Path: Sendable, Hashable, CustomStringConvertible {
        /// One step of a path.
        package enum Element: Sendable, Hashable {
            case name(String)
            case index(Int)
        }

        /// The steps from the root, outermost first; empty for the root itself.
        package var elements: [Element] = []

        package init(_ elements: [Element] = []) {
            self.elements = elements
        }

        /// This path, one step longer.
        func appending(_ element: Element) -> Path {
            var path = self
            path.elements.append(element)
            return path
        }

        /// The normalized path (RFC 9535 section 2.7): `$`, then `['name']` or `[index]` per step, names in
        /// single quotes with `'`, `\` and control characters escaped.
        package var description: String {
            var text = "$"
            for element in elements {
                switch element {
                case .index(let index):
                    text += "[\(index)]"
                case .name(let name):
                    text += "['"
                    for scalar in name.unicodeScalars {
                        switch scalar {
                        case "\u{08}": text += "\\b"
                        case "\u{0C}": text += "\\f"
                        case "\n": text += "\\n"
                        case "\r": text += "\\r"
                        case "\t": text += "\\t"
                        case "'": text += "\\'"
                        case "\\": text += "\\\\"
                        case _ where scalar.value < 0x20:
                            let hex = String(scalar.value, radix: 16)
                            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                        default: text.unicodeScalars.append(scalar)
                        }
                    }
                    text += "']"
                }
            }
            return text
        }

        /// The same location as an RFC 6901 JSON pointer, as flowrun's `#/…` expressions write it.
        package var pointer: JSONPointer {
            JSONPointer(tokens: elements.map {
                switch $0 {
                case .name(let name): name
                case .index(let index): String(index)
                }
            })
        }
    }
}
