/// Decoding of `interceptors:` declarations.
extension WorkflowDecoder {
    /// The keys that choose an interceptor's kind, and the keys each kind may use with it.
    static let interceptorKinds: [(key: String, companions: [String])] = [
        ("headers", ["removeHeaders"]), ("removeHeaders", ["headers"]), ("bearer", []), ("basic", []),
        ("apiKey", []), ("query", []), ("run", ["when", "then"]), ("sign", []), ("unwrap", []), ("wrap", []),
        ("encrypt", []), ("decrypt", []), ("use", ["with"]),
    ]

    /// The declaration kept for an interceptor whose declaration has errors: it does nothing, and it keeps
    /// steps that list the interceptor from getting an "unknown interceptor" finding on top of the real one.
    static func placeholder(named name: Located<String>) -> InterceptorDeclaration {
        InterceptorDeclaration(name: name, kind: .headers(set: [], remove: []))
    }

    mutating func interceptors(_ node: YAMLNode) -> [InterceptorDeclaration] {
        let allowed = ["headers", "removeHeaders", "bearer", "basic", "apiKey", "query", "run", "when", "then", "sign",
                       "unwrap", "wrap", "encrypt", "decrypt", "use", "with"]
        return entries(node, "'interceptors'").compactMap { entry in
            let context = "interceptor '\(entry.name.value)'"
            guard let fields = reader(entry.value, context, allowed) else { return Self.placeholder(named: entry.name) }
            let kinds = Self.interceptorKinds.map(\.key).filter { $0 != "removeHeaders" && fields.contains($0) }
            let kindKey: String
            if kinds.count > 1 {
                report(.invalidValue,
                       "\(context) has one kind; found \(kinds.map { "'\($0)'" }.joined(separator: " and "))",
                       entry.value)
                return Self.placeholder(named: entry.name)
            } else if let only = kinds.first {
                kindKey = only
            } else if fields.contains("removeHeaders") {
                kindKey = "headers"
            } else {
                report(.missingKey,
                       "\(context) needs a kind: headers, removeHeaders, bearer, basic, apiKey, query, run (refresh), sign, unwrap, wrap, encrypt, decrypt or use",
                       entry.value)
                return Self.placeholder(named: entry.name)
            }
            let companions = Self.interceptorKinds.first { $0.key == kindKey }!.companions
            for key in fields.keys where key.value != kindKey && !companions.contains(key.value) {
                diagnostics.append(Diagnostic(
                    .error, .unknownKey, "'\(key.value)' does not belong to a '\(kindKey)' interceptor",
                    at: key.location))
            }
            guard let kind = interceptorKind(kindKey, fields, context) else { return Self.placeholder(named: entry.name) }
            return InterceptorDeclaration(name: entry.name, kind: kind)
        }
    }

    private mutating func interceptorKind(
        _ key: String, _ fields: MappingReader, _ context: String
    ) -> InterceptorDeclaration.Kind? {
        switch key {
        case "headers":
            return .headers(
                set: fields["headers"].map { bindings($0, "'headers'", names: .header) } ?? [],
                remove: fields["removeHeaders"].map { (($0.sequence ?? [$0]).compactMap { string($0, "a header name") }) } ?? [])
        case "bearer":
            return .bearer(token: template(fields["bearer"]!))
        case "basic":
            guard let basic = reader(fields["basic"]!, "'basic'", ["username", "password"],
                                     required: ["username", "password"]),
                let username = basic["username"], let password = basic["password"]
            else { return nil }
            return .basic(username: template(username), password: template(password))
        case "apiKey":
            guard let apiKey = reader(fields["apiKey"]!, "'apiKey'", ["header", "query", "value"], required: ["value"]),
                let value = apiKey["value"]
            else { return nil }
            if let header = apiKey["header"], apiKey["query"] == nil, let name = string(header, "'header'") {
                return .apiKey(placement: .header(name.value), value: template(value))
            }
            if let query = apiKey["query"], apiKey["header"] == nil, let name = string(query, "'query'") {
                return .apiKey(placement: .query(name.value), value: template(value))
            }
            report(.invalidValue, "'apiKey' names exactly one of 'header' or 'query'", fields["apiKey"]!)
            return nil
        case "query":
            return .query(bindings(fields["query"]!, "'query'", names: .free))
        case "run":
            // `when` defaults to 401: the status that means "credentials expired" almost everywhere.
            var statuses = [401]
            if let when = fields["when"], let on = reader(when, "'when'", ["status"], required: ["status"]),
                let statusNode = on["status"]
            {
                statuses = (statusNode.sequence ?? [statusNode]).compactMap { int($0, "a status", in: 100...599) }
                if statusNode.sequence?.isEmpty == true {
                    report(.invalidValue, "'status' lists no status, so the refresh would never run", statusNode)
                }
            }
            if let then = fields["then"], let word = string(then, "'then'"), word.value != "replay" {
                report(.invalidValue, "'then' of a refresh interceptor is 'replay', found '\(word.value)'", then)
            }
            guard let step = name(fields["run"]!, "'run'") else { return nil }
            return .refresh(statuses: statuses, step: step)
        case "sign":
            guard let sign = reader(fields["sign"]!, "'sign'", ["algorithm", "key", "header", "timestampHeader"],
                                    required: ["key"]),
                let key = sign["key"]
            else { return nil }
            if let algorithm = sign["algorithm"], let text = string(algorithm, "'algorithm'"),
                text.value != "hmac-sha256"
            {
                report(.invalidValue, "unsupported signing algorithm '\(text.value)'; flowrun signs with 'hmac-sha256'",
                       algorithm)
            }
            var signing = HMACSigning(key: template(key))
            if let header = sign["header"].flatMap({ string($0, "'header'") }) { signing.header = header.value }
            if let header = sign["timestampHeader"].flatMap({ string($0, "'timestampHeader'") }) {
                signing.timestampHeader = header.value
            }
            return .sign(signing)
        case "unwrap":
            return envelopePointer(fields["unwrap"]!, "'unwrap'").map { .unwrap($0) }
        case "wrap":
            let node = fields["wrap"]!
            guard node.mapping != nil else { return envelopePointer(node, "'wrap'").map { .wrap(at: $0, envelope: nil) } }
            guard let wrap = reader(node, "'wrap'", ["at", "envelope"]) else { return nil }
            guard let pointer = wrap["at"].map({ envelopePointer($0, "'at'") }) ?? (try? JSONPointer(parsing: "/data"))
            else { return nil }
            if let envelope = wrap["envelope"], envelope.mapping == nil {
                report(.typeMismatch, "'envelope' is a mapping: the members the envelope has besides the body",
                       envelope)
                return nil
            }
            return .wrap(at: pointer, envelope: wrap["envelope"].map { template($0) })
        case "encrypt":
            guard let encrypt = reader(fields["encrypt"]!, "'encrypt'", ["key", "alg", "enc"], required: ["key"]),
                let key = encrypt["key"]
            else { return nil }
            if let alg = encrypt["alg"], let text = string(alg, "'alg'"), text.value != "dir" {
                report(.invalidValue, "unsupported 'alg' '\(text.value)'; flowrun encrypts with 'dir' (a shared key)", alg)
            }
            var encryption = PayloadEncryption(key: template(key))
            if let enc = encrypt["enc"], let text = string(enc, "'enc'") {
                guard let algorithm = PayloadEncryption.Algorithm(rawValue: text.value) else {
                    report(.invalidValue,
                           "unsupported 'enc' '\(text.value)'; use "
                               + PayloadEncryption.Algorithm.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or "),
                           enc)
                    return nil
                }
                encryption.algorithm = algorithm
            }
            return .encrypt(encryption)
        case "decrypt":
            guard let decrypt = reader(fields["decrypt"]!, "'decrypt'", ["key"], required: ["key"]),
                let key = decrypt["key"]
            else { return nil }
            return .decrypt(key: template(key))
        default:  // "use"
            guard let name = name(fields["use"]!, "'use'") else { return nil }
            // A program cannot register under a built-in kind's name, so such a `use:` could never run.
            if InterceptorRegistry.isBuiltIn(name.value) {
                report(.invalidValue,
                       "'use: \(name.value)' names a built-in interceptor kind, which a workflow declares with its "
                           + "own key, not with 'use:'; a program cannot register an interceptor under that name",
                       fields["use"]!)
                return nil
            }
            return .custom(name: name, arguments: fields["with"].map { bindings($0, "'with'") } ?? [])
        }
    }

    /// The JSON pointer of an `unwrap` or `wrap` envelope member (`/data`; a leading `#` is allowed).
    private mutating func envelopePointer(_ node: YAMLNode, _ what: String) -> JSONPointer? {
        guard let text = string(node, what) else { return nil }
        let pointerText = text.value.hasPrefix("#") ? String(text.value.dropFirst()) : text.value
        do {
            let pointer = try JSONPointer(parsing: pointerText)
            if pointer.tokens.isEmpty {
                report(.invalidValue, "\(what) names a member of the envelope, such as '/data'; '' is the whole body",
                       node)
                return nil
            }
            return pointer
        } catch {
            // `unwrap: data` means the member `data`: say how to write it.
            let hint = pointerText.hasPrefix("/") ? error.message : "a pointer starts with '/': write '/\(pointerText)'"
            report(.invalidValue, "'\(text.value)' in \(what) is not a JSON pointer; \(hint)", node)
            return nil
        }
    }
}
