/// The network keys of a server: its proxy, connect timeout and TLS files.
extension WorkflowDecoder {
    /// The keys a server's mapping may have.
    static let serverKeys = ["url", "description", "proxy", "connectTimeout", "cacert", "cert", "key", "insecure"]

    /// Reads the network keys of the server `server`, declared in the file at `path`.
    ///
    /// `proxy`, `cacert`, `cert` and `key` are strings that may interpolate expressions (the compiler allows
    /// `$env` only); `connectTimeout` a duration (which is positive); `insecure` a boolean.
    mutating func serverNetwork(_ fields: MappingReader, server: String, path: String) -> ServerNetworkSettings {
        var settings = ServerNetworkSettings(workflowPath: path)
        func text(_ key: String, _ what: String) -> Located<ValueTemplate>? {
            guard let node = fields[key], let value = string(node, "\(what) of server '\(server)'") else { return nil }
            guard !value.value.trimmingSpacesAndTabs().isEmpty else {
                report(.invalidValue, "\(what) of server '\(server)' is empty; leave '\(key)' out instead", node)
                return nil
            }
            return Located(template(node), at: node.location)
        }
        settings.proxy = text("proxy", "the proxy")
        settings.caCertificates = text("cacert", "the CA certificates file")
        settings.certificate = text("cert", "the client certificate file")
        settings.key = text("key", "the client key file")
        settings.connectTimeout = fields["connectTimeout"].flatMap {
            duration($0, "the connect timeout of server '\(server)'")
        }
        if let node = fields["insecure"], let insecure = bool(node, "'insecure' of server '\(server)'") {
            settings.insecure = Located(insecure, at: node.location)
        }
        if settings.key != nil, settings.certificate == nil, let node = fields.keyNode("key") {
            report(.missingKey, "server '\(server)' has a 'key' but no 'cert': a key needs its client certificate", node)
        }
        return settings
    }
}
