/// What a run does when a response does not match what the OpenAPI document of an Arazzo step's operation
/// describes: its status described, its content type one of those listed for it, its body of the described schema.
///
/// An Arazzo step's `successCriteria` alone decide whether it succeeded (Arazzo's semantics), so by default a
/// mismatch is a warning on the attempt, in every report; `error` fails the attempt with a `validation` error
/// instead, which retry and failure actions then see. flowrun's own `operation:` steps are unaffected: their
/// `response:` types are checked as always.
public enum ResponseConformance: String, Sendable, CaseIterable {
    /// Responses are not compared with the OpenAPI document.
    case off
    /// A mismatch is a warning on the attempt (the default).
    case warn
    /// A mismatch fails the attempt with a `validation` error.
    case error
}
