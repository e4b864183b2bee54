/// A value together with the place in the workflow file where it was written.
///
/// Names that the compiler resolves (step ids, type names, interceptor names)
/// are `Located`, so an unresolved reference is reported where it was written
/// rather than at its enclosing mapping.
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Where the value was written.
    public var location: SourceLocation

    /// Creates a located value.
    /// - Parameters:
    ///   - value: The value.
    ///   - location: Where it was written.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
