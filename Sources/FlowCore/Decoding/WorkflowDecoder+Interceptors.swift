/// Decoding of `interceptors:` declarations.
extension WorkflowDecoder {
    /// The keys that choose an interceptor's kind, and the keys each kind may use with it.
    static let interceptorKinds: [(key: String, companions: [String])] = [
        ("headers", ["removeHeaders"]), ("removeHeaders", ["headers"]), ("bearer", []), ("basic", []),
        ("apiKey", []), ("query", []), ("run", ["when", "then"]), ("sign", []), ("unwrap", []), ("use", ["with"]),
    ]

    mutating func interceptors(_ node: YAMLNode) -> [InterceptorDeclaration] {
        let allowed = ["headers", "removeHeaders", "bearer", "basic", "apiKey", "query", "run", "when", "then", "sign",
                       "unwrap", "use", "with"]
        return entries(node, "'interceptors'").compactMap { entry in
            let context = "interceptor '\(entry.name.value)'"
            guard let fields = reader(entry.value, context, allowed) else { return nil }
            let kinds = Self.interceptorKinds.map(\.key).filter { $0 != "removeHeaders" && fields.contains($0) }
            let kindKey: String
            if kinds.count > 1 {
                report(.invalidValue,
                       "\(context) has one kind; found \(kinds.map { "'\($0)'" }.joined(separator: " and "))",
                       entry.value)
                return nil
            } else if let only = kinds.first {
                kindKey = only
            } else if fields.contains("removeHeaders") {
                kindKey = "headers"
            } else {
                report(.missingKey,
                       "\(context) needs a kind: headers, removeHeaders, bearer, basic, apiKey, query, run (refresh), sign, unwrap or use",
                       entry.value)
                return nil
            }
            let companions = Self.interceptorKinds.first { $0.key == kindKey }!.companions
            for key in fields.keys where key.value != kindKey && !companions.contains(key.value) {
                diagnostics.append(Diagnostic(
                    .error, .unknownKey, "'\(key.value)' does not belong to a '\(kindKey)' interceptor",
                    at: key.location))
            }
            guard let kind = interceptorKind(kindKey, fields, context) else { return nil }
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
            guard let text = string(fields["unwrap"]!, "'unwrap'") else { return nil }
            let pointerText = text.value.hasPrefix("#") ? String(text.value.dropFirst()) : text.value
            do {
                return .unwrap(try JSONPointer(parsing: pointerText))
            } catch {
                report(.invalidValue, "invalid JSON pointer '\(text.value)' in 'unwrap': \(error.message)",
                       fields["unwrap"]!)
                return nil
            }
        default:  // "use"
            guard let name = name(fields["use"]!, "'use'") else { return nil }
            return .custom(name: name, arguments: fields["with"].map { bindings($0, "'with'") } ?? [])
        }
    }
}
