/// The dispatchers an ``Engine`` can use, by name.
///
/// A step selects one with `dispatcher:` (or `defaults.dispatcher`); `http` is
/// the default name. The CLI registers `http` and `mock`; an embedding
/// program registers its own.
public struct DispatcherRegistry: Sendable {
    private var dispatchers: [String: any Dispatcher]

    /// Creates a registry.
    /// - Parameter dispatchers: The dispatchers by name.
    public init(_ dispatchers: [String: any Dispatcher] = [:]) {
        self.dispatchers = dispatchers
    }

    /// Registers `dispatcher` under `name`, replacing any other of that name.
    public mutating func register(_ dispatcher: any Dispatcher, as name: String) {
        dispatchers[name] = dispatcher
    }

    /// The dispatcher registered under `name`.
    public subscript(name: String) -> (any Dispatcher)? { dispatchers[name] }

    /// The registered names, sorted.
    public var names: [String] { dispatchers.keys.sorted() }
}

/// The custom interceptors a workflow may `use:`, by name, each made from its `with:` arguments.
public struct InterceptorRegistry: Sendable {
    /// Makes an interceptor from the evaluated `with:` arguments of a declaration.
    public typealias Factory = @Sendable (_ arguments: [String: JSONValue]) throws -> any Interceptor

    private var factories: [String: Factory]

    /// Creates an empty registry.
    public init() { factories = [:] }

    /// Registers a factory under `name`.
    /// - Parameters:
    ///   - name: The name workflows write after `use:`.
    ///   - factory: Makes the interceptor from its arguments; throw to reject bad arguments.
    public mutating func register(_ name: String, factory: @escaping Factory) {
        factories[name] = factory
    }

    /// The factory registered under `name`.
    public subscript(name: String) -> Factory? { factories[name] }

    /// The registered names, sorted.
    public var names: [String] { factories.keys.sorted() }
}
