/// A stage's parameter, declared once as a typed key: its name, title, kind, range, default and help
/// (the ``descriptor`` the CLI, the studio and the docs read), and the Swift type the stage reads it
/// as. A stage declares each key as a static constant and lists them in its `parameters`:
///
/// ```swift
/// static let levels = Key<Int>.integer("levels", title: "Levels", in: 2...64, default: 4, help: "…")
/// static let parameters = declared(levels)
/// init(_ values: StageValues) { levels = values[Self.levels] }   // an Int, never a string lookup
/// ```
///
/// `Owner` ties the key to its stage: ``StageValues`` refuses, loudly, a key of another stage or one
/// its stage did not list, so a misspelt or forgotten parameter cannot silently read 0.
public struct Parameter<Owner: Stage, Value: Sendable>: ParameterDeclaring, Sendable {
    /// What the CLI, the studio and the docs are built from.
    public let descriptor: ParameterDescriptor
    /// The value when a recipe leaves the parameter out.
    public let defaultValue: Value

    /// lowerCamelCase, as recipes spell it.
    public var name: String { descriptor.name }

    init(_ descriptor: ParameterDescriptor, default value: Value) {
        self.descriptor = descriptor
        self.defaultValue = value
    }
}

/// Anything that declares a parameter: the keys of every value type alike.
public protocol ParameterDeclaring: Sendable {
    /// The parameter's declaration.
    var descriptor: ParameterDescriptor { get }
}

/// A Swift type a parameter's value is read as, and how it is spelled in a recipe.
public protocol ParameterValueConvertible: Sendable {
    /// The value a recipe holds as this type; nil when it has another shape.
    /// - Parameter parameterValue: The value as a recipe holds it.
    init?(parameterValue: ParameterValue)
    /// As a recipe spells it.
    var parameterValue: ParameterValue { get }
}

/// The options of a choice parameter: a `CaseIterable` enum whose raw values are what recipes say.
/// The parameter's declaration is built from its cases, so the options cannot drift from the type.
public protocol ParameterChoice: CaseIterable, RawRepresentable, ParameterValueConvertible where RawValue == String {
    /// What people read in a control or help text.
    var title: String { get }
}

/// One parameter set to a value, for building a stage or a recipe step in code: `TintStage.seed(7)`.
public struct ParameterSetting<Owner: Stage>: Sendable {
    /// The parameter's name.
    public let name: String
    /// Its value.
    public let value: ParameterValue
}

extension ParameterChoice {
    /// A case from its raw value in a recipe; nil for another text or shape.
    /// - Parameter parameterValue: The value as a recipe holds it.
    public init?(parameterValue: ParameterValue) {
        guard case .text(let text) = parameterValue else { return nil }
        self.init(rawValue: text)
    }

    public var parameterValue: ParameterValue { .text(rawValue) }

    /// The options of a choice declaration, in case order.
    static var options: [ParameterDescriptor.Option] { allCases.map { .init($0.rawValue, title: $0.title) } }
}

extension Double: ParameterValueConvertible {
    public init?(parameterValue: ParameterValue) {
        guard case .number(let number) = parameterValue else { return nil }
        self = number
    }

    public var parameterValue: ParameterValue { .number(self) }
}

extension Int: ParameterValueConvertible {
    /// Only whole numbers within Int: declarations of whole numbers have already refused the rest.
    public init?(parameterValue: ParameterValue) {
        guard case .number(let number) = parameterValue, number == number.rounded(), let whole = Int(exactly: number) else { return nil }
        self = whole
    }

    public var parameterValue: ParameterValue { .number(Double(self)) }
}

extension Bool: ParameterValueConvertible {
    public init?(parameterValue: ParameterValue) {
        guard case .flag(let flag) = parameterValue else { return nil }
        self = flag
    }

    public var parameterValue: ParameterValue { .flag(self) }
}

extension Colour: ParameterValueConvertible {
    /// A colour from `"#rrggbb"`; nil for another text or shape.
    /// - Parameter parameterValue: The value as a recipe holds it.
    public init?(parameterValue: ParameterValue) {
        guard case .text(let text) = parameterValue else { return nil }
        self.init(hex: text)
    }

    public var parameterValue: ParameterValue { .text(hex) }
}

extension Point: ParameterValueConvertible {
    /// A point from `[x, y]`; nil for another shape.
    /// - Parameter parameterValue: The value as a recipe holds it.
    public init?(parameterValue: ParameterValue) {
        guard case .point(let x, let y) = parameterValue else { return nil }
        self.init(x: x, y: y)
    }

    public var parameterValue: ParameterValue { .point(x: x, y: y) }
}

/// A bean counter's training list as a parameter names it (a file on the command line, "default"
/// in the studio); the stage asks its ``ImageCatalog`` for the classifier.
public struct TrainingListName: ParameterValueConvertible, Hashable {
    /// The list's name.
    public var name: String

    /// Creates a name.
    /// - Parameter name: The list's name.
    public init(_ name: String) {
        self.name = name
    }

    /// A name from a text; nil for another shape.
    /// - Parameter parameterValue: The value as a recipe holds it.
    public init?(parameterValue: ParameterValue) {
        guard case .text(let text) = parameterValue else { return nil }
        name = text
    }

    public var parameterValue: ParameterValue { .text(name) }
}

extension Optional: ParameterValueConvertible where Wrapped: ParameterValueConvertible {
    /// `null` is nil; any other value must be a `Wrapped`.
    public init?(parameterValue: ParameterValue) {
        if case ParameterValue.none = parameterValue {
            self = nil
        } else if let wrapped = Wrapped(parameterValue: parameterValue) {
            self = wrapped
        } else {
            return nil
        }
    }

    public var parameterValue: ParameterValue { map(\.parameterValue) ?? ParameterValue.none }
}

extension Parameter where Value: ParameterValueConvertible {
    /// This parameter set to `value`.
    /// - Parameter value: The value.
    /// - Returns: The setting, for `with(_:images:)` or ``Stage/step(_:)``.
    public func callAsFunction(_ value: Value) -> ParameterSetting<Owner> {
        ParameterSetting(name: name, value: value.parameterValue)
    }
}

extension Parameter where Value == Double {
    /// A number from `range`; `step` is the control's increment.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - range: The values allowed.
    ///   - step: The control's increment.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func number(_ name: String, title: String, in range: ClosedRange<Double>, step: Double, default value: Double,
                              help: String) -> Self {
        Self(.number(name, title: title, in: range, step: step, default: value, help: help), default: value)
    }
}

extension Parameter where Value == Int {
    /// A whole number from `range`, in steps of `step` from its low end (`3...7, step: 2`: an odd
    /// kernel size).
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - range: The values allowed.
    ///   - step: The step from the range's low end.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func integer(_ name: String, title: String, in range: ClosedRange<Int>, step: Int = 1, default value: Int, help: String) -> Self {
        Self(.integer(name, title: title, in: Int64(range.lowerBound)...Int64(range.upperBound), step: Int64(step), default: Int64(value), help: help),
             default: value)
    }
}

extension Parameter where Value == Bool {
    /// On or off.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func flag(_ name: String, title: String, default value: Bool, help: String) -> Self {
        Self(.flag(name, title: title, default: value, help: help), default: value)
    }
}

extension Parameter where Value: ParameterChoice {
    /// One of `Value`'s cases, offered in case order with their titles.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func choice(_ name: String, title: String, default value: Value, help: String) -> Self {
        Self(.choice(name, title: title, options: Value.options, default: value.rawValue, help: help), default: value)
    }
}

extension Parameter where Value == Colour {
    /// An sRGB colour, `"#rrggbb"` in a recipe.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func colour(_ name: String, title: String, default value: Colour, help: String) -> Self {
        Self(.colour(name, title: title, default: value.hex, help: help), default: value)
    }
}

extension Parameter where Value == Point {
    /// A point in normalised coordinates, x and y from 0 to 1.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func point(_ name: String, title: String, default value: Point, help: String) -> Self {
        Self(.point(name, title: title, default: (value.x, value.y), help: help), default: value)
    }
}

extension Parameter where Value == TrainingListName? {
    /// A training list by name; none by default.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func trainingList(_ name: String, title: String, help: String) -> Self {
        Self(.trainingList(name, title: title, help: help), default: nil)
    }
}

extension Parameter where Value == Image? {
    /// A picture referenced by id in a recipe and read, as an ``Image``, from the stage's
    /// ``ImageCatalog``; none by default.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - help: One sentence on what it does.
    /// - Returns: The key.
    public static func image(_ name: String, title: String, help: String) -> Self {
        Self(.image(name, title: title, help: help), default: nil)
    }

    /// This parameter naming the picture `id` (a file path, an upload's id, …), or none.
    /// - Parameter id: The picture's id; nil for none.
    /// - Returns: The setting.
    public func callAsFunction(id: String?) -> ParameterSetting<Owner> {
        ParameterSetting(name: name, value: id.map(ParameterValue.text) ?? ParameterValue.none)
    }
}

extension Stage {
    /// A key of one of this stage's parameters: `static let levels = Key<Int>.integer(…)`.
    public typealias Key<Value: Sendable> = Parameter<Self, Value>

    /// The declarations of `keys`, in the order given: what `parameters` returns.
    /// - Parameter keys: The stage's parameter keys.
    /// - Returns: Their declarations.
    public static func declared(_ keys: any ParameterDeclaring...) -> [ParameterDescriptor] {
        keys.map(\.descriptor)
    }

    /// The stage with the given settings, the others at their defaults.
    /// - Parameters:
    ///   - settings: Parameters set through their keys: `PosterizeStage.with(PosterizeStage.levels(3))`.
    ///   - images: Where image parameters' ids are looked up.
    /// - Returns: The stage.
    /// - Throws: ``StageError`` for a value the declaration does not allow or an image that cannot be had.
    public static func with(_ settings: ParameterSetting<Self>..., images: any ImageCatalog = NoImages()) throws(StageError) -> Self {
        try with(values(settings), images: images)
    }

    /// A recipe step of this stage with the given settings.
    /// - Parameter settings: Parameters set through their keys.
    /// - Returns: The step, for a ``Recipe``.
    public static func step(_ settings: ParameterSetting<Self>...) -> Recipe.Step {
        Recipe.Step(name, values(settings))
    }

    /// Settings as a recipe holds them, by name; a parameter set twice keeps its last value.
    private static func values(_ settings: [ParameterSetting<Self>]) -> [String: ParameterValue] {
        Dictionary(settings.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }
}
