/// One part of a `multipart:` request body: a field, or a file read from a path or made from a value.
///
/// ```yaml
/// multipart:
///   title: "Q3 report"                          # a field: its text, no content type
///   report: { file: data/q3.csv, contentType: text/csv }
///   meta: { value: { year: 2026 } }              # an object or array is sent as JSON
///   note: { value: $inputs.note, filename: note.txt, contentType: text/plain }
/// ```
package struct MultipartPart: Sendable {
    /// Where a part's content comes from.
    package enum Content: Sendable {
        /// A value: a string is sent as its text, a number or boolean as its JSON text, an object or array as JSON.
        case value(ValueTemplate)
        /// A file, by a path relative to the workflow file's folder, which it may not leave.
        case file(ValueTemplate, SourceLocation)
    }

    /// The part's name (its `Content-Disposition` `name`).
    package var name: Located<String>
    /// The content.
    package var content: Content
    /// The file name sent; for a file, its last path component when `nil`.
    package var filename: ValueTemplate?
    /// The part's `Content-Type`; when `nil`, none for text, `application/json` for an object or array,
    /// and `application/octet-stream` for a file.
    package var contentType: Located<String>?

    /// Creates a part.
    /// - Parameters:
    ///   - name: The part's name.
    ///   - content: Where its content comes from.
    ///   - filename: The file name sent.
    ///   - contentType: The part's content type.
    package init(
        name: Located<String>, content: Content, filename: ValueTemplate? = nil, contentType: Located<String>? = nil
    ) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
    }
}
