import Foundation

/// What can be told about a certificate or key file without a TLS library: whether it is there and readable,
/// and whether it holds the PEM blocks it should. `flowrun lint` checks the literal paths of a server's `cacert`,
/// `cert` and `key` with it; the HTTP dispatcher reads the files for real before the first request.
package enum PEMFileCheck {
    /// What a file must hold.
    package enum Content {
        /// One or more certificates (`-----BEGIN CERTIFICATE-----`).
        case certificates
        /// An unencrypted private key (`-----BEGIN PRIVATE KEY-----`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`).
        case privateKey
    }

    /// Why the file at `path` cannot be read — "no such file", "it is a folder", "it cannot be read" — or `nil`.
    package static func readabilityProblem(at path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a folder" }
        return FileManager.default.isReadableFile(atPath: path) ? nil : "it cannot be read"
    }

    /// Why the file at `path` cannot serve: unreadable, or without every kind of block in `contents`; `nil`
    /// when it can.
    package static func problem(at path: String, holding contents: [Content]) -> String? {
        if let problem = readabilityProblem(at: path) { return problem }
        guard let data = FileManager.default.contents(atPath: path) else { return "it cannot be read" }
        let text = String(decoding: data, as: UTF8.self)
        for content in contents {
            switch content {
            case .certificates where !text.contains("-----BEGIN CERTIFICATE-----"):
                return "it holds no PEM certificate"
            case .privateKey where text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----"):
                return "its private key is encrypted; give an unencrypted PEM key"
            case .privateKey where !(text.contains("-----BEGIN ") && text.contains("PRIVATE KEY-----")):
                return "it holds no PEM private key"
            default:
                continue
            }
        }
        return nil
    }
}
