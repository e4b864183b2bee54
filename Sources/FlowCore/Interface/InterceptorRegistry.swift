/// The interceptor kinds a workflow may declare, by name, each with the factory that makes its interceptors:
/// the built-in kinds, which FlowCore registers itself, and the program's own, which a workflow uses with
/// `use: <name>` and `with: { … }` arguments.
///
/// A built-in kind (`headers`, `bearer`, `basic`, `apiKey`, `query`, `refresh`, `sign`, `unwrap`, `wrap`,
/// `encrypt`, `decrypt`) is declared with its own key (`bearer: $vars.token`, `run: login` for `refresh`)
/// and checked by the compiler. Both kinds are made the same way: each time the engine builds a step's
/// chain of interceptors, it looks each declared one up here and calls its factory with an
/// ``InterceptorSetup``.
///
/// The names of the built-in kinds are reserved: ``register(_:factory:)`` refuses them, and every run of an
/// engine whose registry holds a refused registration fails before its first request with a
/// `duplicate-name` error. A program's interceptor never silently replaces a built-in one; register it
/// under a name of its own.
public struct InterceptorRegistry: Sendable {
    /// Makes an interceptor for one chain of a step from its setup: the evaluated `with:` arguments, the
    /// run's vars, inputs and environment, and its secrets.
    ///
    /// A factory written for the arguments alone still reads them by name: `setup["tenant"]`.
    public typealias Factory = @Sendable (_ setup: InterceptorSetup) throws -> any Interceptor

    private var factories: [String: Factory]
    /// The names the program tried to register that belong to built-in kinds, in the order it tried.
    private(set) var refusedNames: [String] = []

    /// Creates a registry that holds the built-in kinds.
    public init() { factories = Self.builtInFactories }

    /// Registers a factory under `name`, replacing a factory the program registered under it before.
    /// - Parameters:
    ///   - name: The name workflows write after `use:`; not the name of a built-in kind.
    ///   - factory: Makes the interceptor from its setup; throw to reject bad arguments.
    /// - Returns: Whether the factory was registered: `false` when `name` is a built-in kind's, which is
    ///   refused (and fails every run of an engine holding this registry before its first request).
    @discardableResult
    public mutating func register(_ name: String, factory: @escaping Factory) -> Bool {
        guard !Self.isBuiltIn(name) else {
            if !refusedNames.contains(name) { refusedNames.append(name) }
            return false
        }
        factories[name] = factory
        return true
    }

    /// The factory registered under `name`, a built-in kind's or the program's.
    public subscript(name: String) -> Factory? { factories.value(forFewKeys: name) }

    /// Every registered name, the built-in kinds' included, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// The names the program registered, sorted: those a workflow may write after `use:`.
    public var customNames: [String] { factories.keys.filter { !Self.isBuiltIn($0) }.sorted() }

    /// The names of the built-in kinds, sorted.
    public static var builtInNames: [String] { builtInFactories.keys.sorted() }

    /// Whether `name` is the name of a built-in kind.
    public static func isBuiltIn(_ name: String) -> Bool { builtInFactories[name] != nil }

    /// The factory that makes `declaration`'s interceptor: its built-in kind's, or the one the program
    /// registered under its `use:` name. A `use:` of a built-in kind's name finds none: a workflow
    /// declares a built-in kind with its own key.
    ///
    /// A built-in kind's factory is found by its kind, not by hashing its name: no program can register under a
    /// built-in kind's name, and the engine asks for every interceptor of every attempt.
    func factory(for declaration: InterceptorDeclaration) -> Factory? {
        if let kind = declaration.builtInKind {
            return Self.builtInFactoryList[Self.builtInKinds.firstIndex(of: kind)!]
        }
        if let used = declaration.usedName, Self.isBuiltIn(used.value) { return nil }
        return factories[declaration.factoryName.value]
    }

    /// The built-in kinds, in the order of ``builtInFactoryList``.
    private static let builtInKinds = BuiltInInterceptorKind.allCases
    /// The built-in kinds' factories, in the order of ``builtInKinds``.
    private static let builtInFactoryList = builtInKinds.map { builtInFactories[$0.rawValue]! }
}
