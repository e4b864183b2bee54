/// One run of ``JSONSchemaValidator`` over one value: the recursion, its position and the failures found.
///
/// The walk is built for the common case, a value that matches. It keeps its position as a stack of path
/// tokens and turns it into a ``JSONPointer`` only when it reports a failure, and every message is a closure
/// that runs only then. Two modes share one code path:
///
/// - `collect` records failures until it has `limit` of them;
/// - `probe` only answers "does it match?" and stops at the first failure without building anything. The
///   branches of `oneOf` and `anyOf`, and undeclared members checked against `additionalProperties`, are
///   probed first; the walk goes back over them collecting messages only when the probe says something failed.
struct ValidationWalk {
    /// Whether failures are recorded or only detected.
    enum Mode {
        /// Stop at the first failure and record nothing.
        case probe
        /// Record failures with their pointers and messages.
        case collect
    }

    /// A step into the value: an object member or an array element.
    enum PathToken {
        /// An object member, by name.
        case key(String)
        /// An array element, by index.
        case index(Int)
    }

    /// How deep into the value the walk follows a schema before it reports a `depth` failure.
    ///
    /// Only a recursive type can lead this deep, and data this deep is more likely an attack on the stack
    /// than a real response.
    static let maxDepth = 128

    /// The named types that `$ref` resolves to.
    let types: [String: JSONSchema]
    /// The compiled `pattern`s.
    let patterns: PatternCache
    /// The schema the whole value is checked against, from which secrets are looked up.
    let root: JSONSchema
    /// Whether `format` fails strings that do not have it, rather than being a hint.
    let enforcesFormats: Bool
    /// The current mode.
    var mode = Mode.collect
    /// How many failures `collect` records before stopping.
    var limit: Int
    /// The failures recorded so far.
    var failures: [ValidationFailure] = []
    /// Whether the current probe has failed.
    var probeFailed = false
    /// The position in the value, kept only while collecting: a probe reports no position.
    var path: [PathToken] = []
    /// How many members and elements deep the walk is.
    var depth = 0
    /// The first type followed at the current position: kept apart from ``refTrail``, as most positions
    /// follow at most one `$ref` and then need no array.
    var firstRefHere: ObjectIdentifier?
    /// The further types being followed at the current position and above it, innermost last, to catch a
    /// `$ref` cycle that never descends into the value.
    var refTrail: [ObjectIdentifier] = []
    /// Where in ``refTrail`` the refs followed at the current position start.
    var trailStart = 0

    init(types: [String: JSONSchema], patterns: PatternCache, root: JSONSchema, limit: Int, enforcesFormats: Bool) {
        self.types = types
        self.patterns = patterns
        self.root = root
        self.limit = limit
        self.enforcesFormats = enforcesFormats
    }

    /// Whether the walk can stop: a probe failed, or enough failures are collected.
    var isDone: Bool {
        switch mode {
        case .probe: probeFailed
        case .collect: failures.count >= limit
        }
    }

    // MARK: Keywords

    /// Checks `value`, found at ``path``, against every keyword of `schema`.
    mutating func check(_ value: JSONValue, against schema: JSONSchema) {
        guard !isDone else { return }
        if let types = schema.types, !Self.value(value, hasTypeIn: schema.typeMask) {
            // The other keywords constrain a type the value doesn't have, so they would only add noise.
            fail("type") { secret in "expected \(Self.describe(types)), found \(Self.describe(value, secret: secret))" }
            return
        }
        if let ref = schema.ref {
            follow(ref, value)
            if isDone { return }
        }
        if let allowed = schema.enumValues, !allowed.contains(where: { $0.isSchemaEqual(to: value) }) {
            fail("enum") { secret in
                "expected one of \(Self.render(allowed)), found \(Self.describe(value, secret: secret))"
            }
            if isDone { return }
        }
        if let constant = schema.constValue, !constant.isSchemaEqual(to: value) {
            fail("const") { secret in
                "expected \(Self.render(constant)), found \(Self.describe(value, secret: secret))"
            }
            if isDone { return }
        }
        switch value {
        case .string(let string): checkString(string, value, schema)
        case .int, .bigInteger, .double: checkNumber(value, schema)
        case .array(let elements): checkArray(elements, schema)
        case .object(let members): checkObject(members, schema)
        case .null, .bool: break
        }
        for branch in schema.allOf {
            check(value, against: branch)
            if isDone { return }
        }
        if !schema.anyOf.isEmpty { checkAnyOf(value, schema.anyOf) }
        if !schema.oneOf.isEmpty { checkOneOf(value, schema.oneOf) }
    }

    /// Whether a value has one of the allowed types, given as ``JSONSchema/typeMask``; `integer` includes
    /// doubles without a fraction.
    static func value(_ value: JSONValue, hasTypeIn types: UInt8) -> Bool {
        func allows(_ type: JSONSchema.TypeName) -> Bool { types & type.bit != 0 }
        return switch value {
        case .null: allows(.null)
        case .bool: allows(.boolean)
        case .int, .bigInteger: allows(.integer) || allows(.number)
        case .double(let d): allows(.number) || (allows(.integer) && d.isFinite && d.rounded() == d)
        case .string: allows(.string)
        case .array: allows(.array)
        case .object: allows(.object)
        }
    }

    /// Checks the value against the named type, unless that type is already being checked at this position.
    mutating func follow(_ ref: Located<String>, _ value: JSONValue) {
        let name = ref.value
        guard let target = types.value(forFewKeys: name) else {
            fail("$ref") { _ in "unknown type '\(name)'" }
            return
        }
        let id = ObjectIdentifier(target)
        guard firstRefHere != id, !refTrail[trailStart...].contains(id) else {
            fail("$ref") { _ in "the type '\(name)' refers back to itself without descending into the value" }
            return
        }
        if firstRefHere == nil {
            firstRefHere = id
            check(value, against: target)
            firstRefHere = nil
        } else {
            refTrail.append(id)
            check(value, against: target)
            refTrail.removeLast()
        }
    }

    /// Checks `minLength`, `maxLength`, `pattern` and, when enforced, `format`.
    mutating func checkString(_ string: String, _ value: JSONValue, _ schema: JSONSchema) {
        if let minLength = schema.minLength, !Self.isLongEnough(string, minLength) {
            fail("minLength") { secret in
                secret
                    ? "the value is shorter than the minimum length \(minLength)"
                    : "\(Self.describe(value, secret: false)) is \(Self.characters(string.unicodeScalars.count)) long, "
                        + "shorter than the minimum length \(minLength)"
            }
            if isDone { return }
        }
        if let maxLength = schema.maxLength, !Self.isShortEnough(string, maxLength) {
            fail("maxLength") { secret in
                secret
                    ? "the value is longer than the maximum length \(maxLength)"
                    : "\(Self.describe(value, secret: false)) is \(Self.characters(string.unicodeScalars.count)) long, "
                        + "longer than the maximum length \(maxLength)"
            }
            if isDone { return }
        }
        if let pattern = schema.pattern {
            switch patterns.entry(for: pattern) {
            case .compiled(let shared):
                if !string.contains(shared.regex) {
                    fail("pattern") { secret in
                        "\(Self.subject(value, secret: secret)) does not match the pattern '\(pattern)'"
                    }
                }
            case .invalid(let reason):
                fail("pattern") { _ in "the pattern '\(pattern)' is not a valid regular expression: \(reason)" }
            }
            if isDone { return }
        }
        if enforcesFormats, let format = schema.format, FormatChecker.check(string, format: format) == false {
            fail("format") { secret in
                "\(Self.subject(value, secret: secret)) is not a valid \(FormatChecker.noun(for: format) ?? format)"
            }
        }
    }

    /// Whether `string` has at least `minLength` Unicode scalars. `utf8.count` is O(1) and bounds the scalar count
    /// from above, so most lengths need no counting.
    static func isLongEnough(_ string: String, _ minLength: Int) -> Bool {
        string.utf8.count >= minLength && string.unicodeScalars.count >= minLength
    }

    /// Whether `string` has at most `maxLength` Unicode scalars.
    static func isShortEnough(_ string: String, _ maxLength: Int) -> Bool {
        string.utf8.count <= maxLength || string.unicodeScalars.count <= maxLength
    }

    /// Checks `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum`.
    mutating func checkNumber(_ value: JSONValue, _ schema: JSONSchema) {
        if let minimum = schema.minimum, value.compare(to: minimum) == .less {
            fail("minimum") { secret in
                "\(Self.subject(value, secret: secret)) is less than the minimum \(Self.render(minimum))"
            }
            if isDone { return }
        }
        if let maximum = schema.maximum, value.compare(to: maximum) == .greater {
            fail("maximum") { secret in
                "\(Self.subject(value, secret: secret)) is greater than the maximum \(Self.render(maximum))"
            }
            if isDone { return }
        }
        if let bound = schema.exclusiveMinimum, value.compare(to: bound) != .greater {
            fail("exclusiveMinimum") { secret in
                "\(Self.subject(value, secret: secret)) is not greater than the exclusive minimum \(Self.render(bound))"
            }
            if isDone { return }
        }
        if let bound = schema.exclusiveMaximum, value.compare(to: bound) != .less {
            fail("exclusiveMaximum") { secret in
                "\(Self.subject(value, secret: secret)) is not less than the exclusive maximum \(Self.render(bound))"
            }
        }
    }

    /// Checks `minItems`, `maxItems` and `items`.
    mutating func checkArray(_ elements: [JSONValue], _ schema: JSONSchema) {
        if let minItems = schema.minItems, elements.count < minItems {
            fail("minItems") { _ in "expected at least \(Self.items(minItems)), found \(elements.count)" }
            if isDone { return }
        }
        if let maxItems = schema.maxItems, elements.count > maxItems {
            fail("maxItems") { _ in "expected at most \(Self.items(maxItems)), found \(elements.count)" }
            if isDone { return }
        }
        if let items = schema.items {
            for (index, element) in elements.enumerated() {
                descend(into: .index(index), element, items)
                if isDone { return }
            }
        }
    }

    /// Checks `required`, `properties` and `additionalProperties`.
    mutating func checkObject(_ members: [String: JSONValue], _ schema: JSONSchema) {
        for name in schema.required where members.value(forFewKeys: name.value) == nil {
            let name = name.value
            fail("required") { _ in "missing required property '\(name)'" }
            if isDone { return }
        }
        var declaredMembers = 0
        for property in schema.properties {
            guard let member = members.value(forFewKeys: property.name) else { continue }
            declaredMembers += 1
            descend(into: .key(property.name), member, property.schema)
            if isDone { return }
        }
        // When every member is declared there is nothing for `additionalProperties` to check.
        guard declaredMembers < members.count else { return }
        switch schema.additionalProperties {
        case .unspecified, .allowed(true):
            return
        case .allowed(false):
            guard mode == .collect else {
                probeFailed = true
                return
            }
            let declared = Self.declaredNames(schema)
            for name in Self.undeclaredNames(members, schema) {
                path.append(.key(name))
                fail("additionalProperties") { _ in "unexpected property; \(declared)" }
                path.removeLast()
                if isDone { return }
            }
        case .schema(let additional):
            // Dictionary order is arbitrary, so failures are collected in name order; sorting costs an
            // allocation, which only a failing member pays for.
            if mode == .collect {
                let allMatch = probing { walk in
                    for (name, member) in members where schema.property(name) == nil {
                        walk.descend(into: .key(name), member, additional)
                        if walk.isDone { return }
                    }
                }
                if allMatch { return }
                for name in Self.undeclaredNames(members, schema) {
                    descend(into: .key(name), members[name]!, additional)
                    if isDone { return }
                }
            } else {
                for (name, member) in members where schema.property(name) == nil {
                    descend(into: .key(name), member, additional)
                    if isDone { return }
                }
            }
        }
    }

    /// Checks that at least one branch matches; branches are probed, and explained only when none matches.
    mutating func checkAnyOf(_ value: JSONValue, _ branches: [JSONSchema]) {
        for branch in branches where probing({ $0.check(value, against: branch) }) { return }
        guard mode == .collect else {
            probeFailed = true
            return
        }
        let summary = branchSummary(value, branches)
        fail("anyOf") { _ in "matches none of \(branches.count) alternatives: \(summary)" }
    }

    /// Checks that exactly one branch matches.
    mutating func checkOneOf(_ value: JSONValue, _ branches: [JSONSchema]) {
        var matchCount = 0
        for branch in branches where probing({ $0.check(value, against: branch) }) {
            matchCount += 1
            if matchCount == 2 { break }
        }
        if matchCount == 1 { return }
        guard mode == .collect else {
            probeFailed = true
            return
        }
        if matchCount == 0 {
            let summary = branchSummary(value, branches)
            fail("oneOf") { _ in "matches none of \(branches.count) alternatives: \(summary)" }
            return
        }
        // Messages name every matching branch, so the probe that stopped at the second one goes on here.
        var matches: [String] = []
        for (index, branch) in branches.enumerated() where probing({ $0.check(value, against: branch) }) {
            matches.append(String(index + 1))
        }
        let names = matches.dropLast().joined(separator: ", ") + " and " + matches[matches.count - 1]
        fail("oneOf") { _ in
            "matches \(matches.count) of \(branches.count) alternatives (\(names)); exactly one must match"
        }
    }

    /// Why each branch fails, compactly: `(1) expected a string, found true; (2) at /id: ...`.
    mutating func branchSummary(_ value: JSONValue, _ branches: [JSONSchema]) -> String {
        var parts: [String] = []
        let here = pointer
        for (index, branch) in branches.enumerated() {
            let found = collecting(limit: 2) { $0.check(value, against: branch) }
            var part = "(\(index + 1)) "
            if let first = found.first {
                part += first.pointer == here ? first.message : "at \(first.pointer): \(first.message)"
                if found.count > 1 { part += " (and more)" }
            } else {
                part += "does not match"
            }
            parts.append(part)
        }
        return parts.joined(separator: "; ")
    }

    // MARK: Position and modes

    /// Checks a member or element of the current value.
    mutating func descend(into token: PathToken, _ value: JSONValue, _ schema: JSONSchema) {
        guard depth < Self.maxDepth else {
            fail("depth") { _ in "the value nests more than \(Self.maxDepth) levels deep, deeper than flowrun checks" }
            return
        }
        // A probe inside a collecting walk leaves the path where the probe started: nothing reads it until the
        // probe is over, and the probe restores the mode.
        let keepsPath = mode == .collect
        if keepsPath {
            // One allocation for the usual depths, on the first descent, rather than one per doubling.
            if path.capacity == 0 { path.reserveCapacity(16) }
            path.append(token)
        }
        depth += 1
        // A `$ref` cycle is only a problem when it comes back to the same position; one level down, recursive
        // types such as trees are fine.
        let saved = (trailStart, firstRefHere)
        (trailStart, firstRefHere) = (refTrail.count, nil)
        check(value, against: schema)
        (trailStart, firstRefHere) = saved
        depth -= 1
        if keepsPath { path.removeLast() }
    }

    /// Runs `body` as a probe and returns whether nothing in it failed.
    mutating func probing(_ body: (inout Self) -> Void) -> Bool {
        let (savedMode, savedProbeFailed) = (mode, probeFailed)
        (mode, probeFailed) = (.probe, false)
        body(&self)
        let matched = !probeFailed
        (mode, probeFailed) = (savedMode, savedProbeFailed)
        return matched
    }

    /// Runs `body` collecting up to `limit` failures apart from those already found, and returns them.
    mutating func collecting(limit: Int, _ body: (inout Self) -> Void) -> [ValidationFailure] {
        let saved = (mode, probeFailed, failures, self.limit)
        (mode, probeFailed, failures, self.limit) = (.collect, false, [], limit)
        body(&self)
        let found = failures
        (mode, probeFailed, failures, self.limit) = saved
        return found
    }

    /// Records a failure at the current position; in a probe, only notes that something failed.
    ///
    /// - Parameters:
    ///   - rule: The keyword that failed.
    ///   - message: Builds the message, told whether the value at this position is a secret.
    mutating func fail(_ rule: String, _ message: (_ secret: Bool) -> String) {
        switch mode {
        case .probe:
            probeFailed = true
        case .collect:
            let secret = isSecretPosition()
            failures.append(ValidationFailure(pointer: pointer, rule: rule, message: message(secret)))
        }
    }

    /// The current position as a pointer.
    var pointer: JSONPointer {
        JSONPointer(tokens: path.map { token in
            switch token {
            case .key(let name): name
            case .index(let index): String(index)
            }
        })
    }

    /// The names of the object's members that the schema does not declare, sorted.
    static func undeclaredNames(_ members: [String: JSONValue], _ schema: JSONSchema) -> [String] {
        members.keys.filter { schema.property($0) == nil }.sorted()
    }
}
