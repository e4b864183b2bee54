/// How a workflow's values are checked against their declared types: the `validation:` section.
///
/// ```yaml
/// validation: { formats: enforce }
/// ```
package struct ValidationSettings: Sendable, Hashable {
    /// What `format` does to a string.
    ///
    /// JSON Schema 2020-12 makes `format` an annotation unless a validator is told to assert it; flowrun
    /// follows that, so an API with loose dates does not fail a production run by default.
    package enum FormatMode: String, Sendable, Hashable, CaseIterable {
        /// `format` is a hint and never fails a value (the default).
        case hint
        /// The formats flowrun knows (`date-time`, `date`, `email`, `uuid`, `uri`, `ipv4`) fail a string that
        /// does not have them; other formats stay hints.
        case enforce
    }

    /// What `format` does; ``FormatMode/hint`` unless the workflow says `formats: enforce`.
    ///
    /// `format: password` marks a secret in either mode.
    package var formats: FormatMode

    /// Creates settings.
    /// - Parameter formats: What `format` does.
    package init(formats: FormatMode = .hint) {
        self.formats = formats
    }
}
