/// I-Regexp (RFC 9485), the interoperable regular expressions of JSONPath's `match()` and `search()`,
/// checked and translated into Swift's regex syntax.
///
/// I-Regexp is a small subset that every regex engine reads alike: branches, groups, the quantifiers
/// `* + ? {n} {n,} {n,m}`, `.`, character classes with ranges, `\p{…}` and `\P{…}` general categories, and
/// escaped metacharacters, without back-references or lookaround. `.` matches any character but `\n` and
/// `\r`. A pattern outside the subset is invalid, which makes `match` and `search` false (RFC 9535 section
/// 2.4.6). An unescaped `^` or `$` outside a class anchors at the start or end of the string, as the JSONPath
/// Compliance Test Suite expects and as the regex engines RFC 9485 section 5 maps I-Regexp onto read them.
enum IRegexp {
    /// Compiles an I-Regexp for `match` (the whole string) or `search` (any substring); `nil` when the pattern
    /// is not a valid I-Regexp.
    static func compile(_ pattern: String, wholeMatch: Bool) -> SharedRegex? {
        guard let translated = translate(pattern) else { return nil }
        // `match` is anchored by `wholeMatch(of:)` when evaluated; both are matched on Unicode scalars.
        guard let regex = try? Regex(translated).matchingSemantics(.unicodeScalar) else { return nil }
        _ = "".contains(regex)  // Lowers it now, before it is shared (see `SharedRegex`).
        return SharedRegex(regex: regex)
    }

    /// The pattern in Swift's regex syntax, or `nil` when it is not a valid I-Regexp.
    static func translate(_ pattern: String) -> String? {
        var translator = Translator(scalars: Array(pattern.unicodeScalars))
        guard let output = translator.branches(), translator.position == translator.scalars.count else { return nil }
        return output
    }

    private struct Translator {
        let scalars: [Unicode.Scalar]
        var position = 0
        var depth = 0

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        /// `i-regexp`: branches separated by `|`.
        mutating func branches() -> String? {
            var output = ""
            while true {
                guard let branch = branch() else { return nil }
                output += branch
                guard peek == "|" else { return output }
                position += 1
                output += "|"
            }
        }

        /// `branch`: pieces up to `|`, `)` or the end.
        mutating func branch() -> String? {
            var output = ""
            while let scalar = peek, scalar != "|", scalar != ")" {
                guard let atom = atom() else { return nil }
                output += atom
                guard let quantifier = quantifier() else { return nil }
                output += quantifier
            }
            return output
        }

        /// An optional `quantifier`; `nil` when one is malformed.
        mutating func quantifier() -> String? {
            switch peek {
            case "*", "+", "?":
                position += 1
                return String(scalars[position - 1])
            case "{":
                position += 1
                guard let low = digits() else { return nil }
                var output = "{\(low)"
                if peek == "," {
                    position += 1
                    output += ","
                    if let high = digits() {
                        guard (Int(high) ?? 0) >= (Int(low) ?? 0) else { return nil }
                        output += high
                    }
                }
                guard peek == "}" else { return nil }
                position += 1
                return output + "}"
            default:
                return ""
            }
        }

        mutating func digits() -> String? {
            var text = ""
            while let scalar = peek, ("0"..."9").contains(scalar) {
                text.unicodeScalars.append(scalar)
                position += 1
            }
            return text.isEmpty || text.count > 9 ? nil : text
        }

        /// `atom`: a character, a class or a group.
        mutating func atom() -> String? {
            guard let scalar = peek else { return nil }
            switch scalar {
            case "(":
                depth += 1
                defer { depth -= 1 }
                guard depth <= 32 else { return nil }
                position += 1
                guard let inner = branches(), peek == ")" else { return nil }
                position += 1
                return "(?:" + inner + ")"
            case ".":
                position += 1
                return "[^\\n\\r]"
            case "[":
                return characterClass()
            case "\\":
                return escape(inClass: false)
            case "^", "$":
                position += 1
                return String(scalar)
            case "*", "+", "?", "{", "}", "]", ")", "|":
                return nil  // A quantifier with nothing to repeat, or a metacharacter that must be escaped.
            default:
                position += 1
                return Self.literal(scalar)
            }
        }

        /// `SingleCharEsc` or `charClassEsc` after a `\`.
        mutating func escape(inClass: Bool) -> String? {
            position += 1
            guard let scalar = peek else { return nil }
            position += 1
            switch scalar {
            case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}":
                return Self.literal(scalar)
            case "n": return "\\n"
            case "r": return "\\r"
            case "t": return "\\t"
            case "p", "P":
                guard peek == "{" else { return nil }
                position += 1
                var name = ""
                while let letter = peek, letter != "}" {
                    name.unicodeScalars.append(letter)
                    position += 1
                }
                guard peek == "}", Self.categories.contains(name) else { return nil }
                position += 1
                return "\\\(scalar){\(name)}"
            default:
                return nil
            }
        }

        /// `charClassExpr`: `[`, an optional `^`, ranges, characters and category escapes, `]`.
        mutating func characterClass() -> String? {
            position += 1  // "["
            var output = "["
            if peek == "^" {
                position += 1
                output += "^"
            }
            var first = true
            while let scalar = peek, scalar != "]" {
                if scalar == "-" {
                    // A '-' is literal only first or last in the class.
                    guard first || (position + 1 < scalars.count && scalars[position + 1] == "]") else { return nil }
                    position += 1
                    output += "\\-"
                    first = false
                    continue
                }
                first = false
                if scalar == "\\", position + 1 < scalars.count, scalars[position + 1] == "p" || scalars[position + 1] == "P" {
                    guard let category = escape(inClass: true) else { return nil }
                    output += category
                    continue
                }
                guard let low = classCharacter() else { return nil }
                output += low.text
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let high = classCharacter(), high.scalar.value >= low.scalar.value else { return nil }
                    output += "-" + high.text
                }
            }
            guard peek == "]", output != "[", output != "[^" else { return nil }
            position += 1
            return output + "]"
        }

        /// `CCchar`: a character of a class, itself and as Swift regex text.
        mutating func classCharacter() -> (scalar: Unicode.Scalar, text: String)? {
            guard let scalar = peek else { return nil }
            switch scalar {
            case "[", "]": return nil
            case "\\":
                guard position + 1 < scalars.count else { return nil }
                let escaped = scalars[position + 1]
                guard let text = escape(inClass: true) else { return nil }
                let value: Unicode.Scalar =
                    switch escaped {
                    case "n": "\n"
                    case "r": "\r"
                    case "t": "\t"
                    default: escaped
                    }
                return (value, text)
            default:
                position += 1
                return (scalar, Self.literal(scalar))
            }
        }

        /// A character as Swift regex text that means only that character, in or out of a class.
        static func literal(_ scalar: Unicode.Scalar) -> String {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                return String(scalar)
            }
            return "\\u{\(String(scalar.value, radix: 16))}"
        }

        /// The general categories `\p{…}` may name (RFC 9485 `IsCategory`).
        static let categories: Set<String> = [
            "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
            "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
            "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
        ]
    }
}
