import Foundation

/// `multipart/form-data` bodies (RFC 7578): building them for `multipart:` requests, reading them back for
/// stub matching, and finding the files their parts read.
public enum MultipartFormData {
    /// One part of a body.
    public struct Part: Sendable, Hashable {
        /// The field name.
        public var name: String
        /// The file name, for a file part.
        public var filename: String?
        /// The part's `Content-Type`, if it has one.
        public var contentType: String?
        /// The content.
        public var body: [UInt8]

        /// Creates a part.
        /// - Parameters:
        ///   - name: The field name.
        ///   - filename: The file name, for a file part.
        ///   - contentType: The part's content type.
        ///   - body: The content.
        public init(name: String, filename: String? = nil, contentType: String? = nil, body: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.body = body
        }
    }

    /// The largest file a part may read, in bytes (64 MiB).
    public static let fileSizeLimit = 64 << 20

    /// A fresh random boundary: `flowrun-` and 24 letters and digits.
    static func makeBoundary() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return "flowrun-" + String((0..<24).map { _ in alphabet.randomElement()! })
    }

    /// Encodes `parts` with a boundary that none of them contains.
    /// - Parameter parts: The parts, in order.
    /// - Returns: The body and the `Content-Type` that names its boundary.
    static func encode(_ parts: [Part]) -> (body: [UInt8], contentType: String) {
        var boundary = makeBoundary()
        // A 24-character random boundary is all but unique; checking makes it certain.
        while parts.contains(where: { firstRange(of: Array(boundary.utf8), in: $0.body, from: 0) != nil }) {
            boundary = makeBoundary()
        }
        return (encode(parts, boundary: boundary), "multipart/form-data; boundary=\(boundary)")
    }

    /// Encodes `parts` between `boundary` lines, each with its `Content-Disposition` and `Content-Type`.
    /// - Parameters:
    ///   - parts: The parts, in order.
    ///   - boundary: The boundary, which no part may contain.
    /// - Returns: The body bytes.
    public static func encode(_ parts: [Part], boundary: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(parts.reduce(0) { $0 + $1.body.count + 128 })
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escape(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(escape(filename))\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "\r\n"
            body += Array(head.utf8)
            body += part.body
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    /// A name or file name as a quoted-string may hold it: `"`, CR and LF percent-encoded, as browsers do
    /// (RFC 7578 §4.2 leaves the encoding open; the WHATWG form encoding is what servers expect).
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Reads the parts of a `multipart/form-data` body.
    /// - Parameters:
    ///   - body: The body.
    ///   - contentType: Its `Content-Type`, which names the boundary.
    /// - Returns: The parts, or `nil` when the body is not multipart or is malformed.
    public static func parse(_ body: [UInt8], contentType: String?) -> [Part]? {
        guard BodyFormat.mediaType(contentType)?.hasPrefix("multipart/") == true,
            let boundary = BodyFormat.parameter("boundary", of: contentType), !boundary.isEmpty
        else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        guard var start = firstRange(of: delimiter, in: body, from: 0)?.upperBound else { return nil }
        while true {
            // After a delimiter: `--` ends the body, CRLF starts a part.
            if body[start...].starts(with: Array("--".utf8)) { return parts }
            guard body[start...].starts(with: Array("\r\n".utf8)) else { return nil }
            let headStart = start + 2
            guard let headEnd = firstRange(of: Array("\r\n\r\n".utf8), in: body, from: headStart),
                let next = firstRange(of: Array("\r\n".utf8) + delimiter, in: body, from: headEnd.upperBound)
            else { return nil }
            var part = Part(name: "", body: Array(body[headEnd.upperBound..<next.lowerBound]))
            let head = String(decoding: body[headStart..<headEnd.lowerBound], as: UTF8.self)
            for line in head.split(separator: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let value = String(pair[1]).drop { $0 == " " }
                switch pair[0].lowercased() {
                case "content-type": part.contentType = String(value)
                case "content-disposition":
                    part.name = dispositionParameter("name", in: String(value)) ?? ""
                    part.filename = dispositionParameter("filename", in: String(value))
                default: break
                }
            }
            parts.append(part)
            start = next.upperBound
        }
    }

    /// A quoted parameter of a `Content-Disposition` value, with `%22`, `%0D` and `%0A` decoded.
    private static func dispositionParameter(_ name: String, in value: String) -> String? {
        guard let range = value.range(of: "; \(name)=\"") else { return nil }
        let rest = value[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
            .replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
            .replacingOccurrences(of: "%0A", with: "\n")
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }

    // MARK: Files

    /// Finds the file a part reads: `path` relative to the folder of the workflow file, which it may not leave.
    ///
    /// Absolute paths are refused, and so is a path that leaves the folder by `..` or through a symbolic link,
    /// so a workflow (or a value bound into the path) cannot send files from elsewhere on the machine.
    /// - Parameters:
    ///   - path: The path as written or bound.
    ///   - workflowPath: The path of the workflow file.
    /// - Returns: The file's absolute path, or why it is refused.
    public static func resolveFile(_ path: String, workflowPath: String) -> Result<String, FileProblem> {
        if path.isEmpty { return .failure(FileProblem(message: "the file path is empty")) }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            return .failure(FileProblem(
                message: "'\(path)' is absolute; a file path is relative to the workflow file's folder"))
        }
        let folder = URL(fileURLWithPath: workflowPath).deletingLastPathComponent().standardizedFileURL
            .resolvingSymlinksInPath().path
        let file = URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL
            .resolvingSymlinksInPath().path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard file.hasPrefix(prefix) else {
            return .failure(FileProblem(message: "'\(path)' leaves the workflow file's folder (\(folder))"))
        }
        return .success(file)
    }

    /// Reads the file a part reads, refusing one larger than ``fileSizeLimit``.
    /// - Parameters:
    ///   - path: The path as written or bound.
    ///   - workflowPath: The path of the workflow file.
    /// - Returns: The bytes, or why they cannot be read.
    static func readFile(_ path: String, workflowPath: String) -> Result<[UInt8], FileProblem> {
        let resolved: String
        switch resolveFile(path, workflowPath: workflowPath) {
        case .success(let file): resolved = file
        case .failure(let problem): return .failure(problem)
        }
        guard let handle = FileHandle(forReadingAtPath: resolved) else {
            let reason = FileManager.default.fileExists(atPath: resolved) ? "permission denied" : "no such file"
            return .failure(FileProblem(message: "cannot read '\(path)': \(reason)"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: fileSizeLimit + 1) ?? Data()
            guard data.count <= fileSizeLimit else {
                return .failure(FileProblem(
                    message: "'\(path)' is larger than \(fileSizeLimit >> 20) MiB, the limit for a multipart file"))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(FileProblem(message: "cannot read '\(path)': \(error.localizedDescription)"))
        }
    }

    /// Why a part's file cannot be used.
    public struct FileProblem: Error, Sendable, Hashable {
        /// What is wrong, such as "cannot read 'q3.csv': no such file".
        public var message: String
    }
}
