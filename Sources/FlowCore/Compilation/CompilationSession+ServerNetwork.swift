/// Checks of a server's network keys: what their templates read, and the proxy URL and files they name when
/// they read nothing.
extension CompilationSession {
    /// Checks the network settings of `server`.
    ///
    /// `proxy`, `cacert`, `cert` and `key` may read declared `$env` variables only. A literal proxy must be
    /// `none` or an HTTP proxy URL; a literal file, resolved against the workflow's folder, must exist, be
    /// readable and hold the PEM blocks it is for. Values that read `$env` are checked by `flowrun run` before
    /// the first request.
    mutating func checkNetwork(of server: Server) {
        let network = server.network
        let name = server.name.value
        for (key, setting) in network.templates {
            _ = checkTemplate(setting.value, in: .server, placement: .scalar("'\(key)' of a server"), at: setting.location)
            // `$steps` and `$response` are refused by the template check already.
            for (expression, location) in setting.value.expressions {
                switch expression.source {
                case .input, .variable: break
                default: continue
                }
                error(.invalidExpression,
                      "'\(key)' of server '\(name)' reads '\(expression)'; it may read $env only, as it belongs to "
                          + "the machine the run is on, not to the run's data",
                      at: location)
            }
        }
        if let proxy = network.proxy, case .literal(.string(let url)) = proxy.value,
            url.lowercased() != ServerNetworkSettings.directProxy
        {
            do {
                _ = try ProxyURL(url)
            } catch let invalid {
                error(.invalidValue, "the proxy of server '\(name)': \(invalid.reason) (or write 'none' to go directly)",
                      at: proxy.location)
            }
        }
        let keyInCertificate = network.key == nil
        let files: [(key: String, setting: Located<ValueTemplate>?, contents: [PEMFileCheck.Content])] = [
            ("cacert", network.caCertificates, [.certificates]),
            ("cert", network.certificate, keyInCertificate ? [.certificates, .privateKey] : [.certificates]),
            ("key", network.key, [.privateKey]),
        ]
        for (key, setting, contents) in files {
            guard let setting, case .literal(.string(let written)) = setting.value else { continue }
            let path = SubWorkflowLoader.resolve(written, from: network.workflowPath)
            guard var problem = PEMFileCheck.problem(at: path, holding: contents) else { continue }
            if key == "cert", keyInCertificate, problem == "it holds no PEM private key" {
                problem += "; give the key's file as 'key'"
            }
            let shown = path == written ? path : "\(written) (\(path))"
            error(.unreadableFile, "the '\(key)' file of server '\(name)', \(shown): \(problem)", at: setting.location)
        }
    }
}
