/// A stage's parameter values, every declared one present and checked against its declaration.
public struct StageValues: Sendable, Equatable {
    /// The stage they belong to.
    public let stage: String
    /// By parameter name.
    public let values: [String: ParameterValue]
    /// Where image parameters' ids are looked up.
    public let images: any ImageCatalog

    /// Checks the given values against the declarations and fills in the defaults.
    /// - Parameters:
    ///   - stage: The stage's name, for messages.
    ///   - declarations: The stage's parameters.
    ///   - given: The values a recipe gave.
    ///   - images: Where image parameters' ids are looked up.
    /// - Throws: ``StageError`` for a parameter the stage does not have or a value it does not allow.
    public init(stage: String, declarations: [ParameterDescriptor], given: [String: ParameterValue],
                images: any ImageCatalog = NoImages()) throws(StageError) {
        for name in given.keys.sorted() where !declarations.contains(where: { $0.name == name }) {
            let known = declarations.isEmpty ? "it has no parameters"
                : "its parameters are \(declarations.map(\.name).joined(separator: ", "))"
            throw StageError(stage: stage, parameter: name, reason: "no such parameter; \(known)")
        }
        var values: [String: ParameterValue] = [:]
        for declaration in declarations {
            values[declaration.name] = try declaration.validate(given[declaration.name] ?? declaration.defaultValue, stage: stage)
        }
        self.stage = stage
        self.values = values
        self.images = images
    }

    /// Equal when they are for the same stage with the same values, wherever their images come from.
    /// - Parameters:
    ///   - lhs: One set of values.
    ///   - rhs: The other.
    /// - Returns: Whether they are equal.
    public static func == (lhs: StageValues, rhs: StageValues) -> Bool {
        lhs.stage == rhs.stage && lhs.values == rhs.values
    }

    /// The value of one of the stage's parameters, as its key's type.
    ///
    /// A key of another stage, or one the stage did not list in its `parameters`, is a mistake in
    /// the stage's code, not in a recipe: it stops the program with a message naming the key, so the
    /// first test that builds the stage finds it, rather than reading a made-up 0, false or nil.
    /// - Parameter key: One of the stage's keys.
    /// - Returns: Its value.
    public subscript<Owner: Stage, Value: ParameterValueConvertible>(key: Parameter<Owner, Value>) -> Value {
        guard Owner.name == stage, let value = values[key.name].flatMap(Value.init(parameterValue:)) else {
            preconditionFailure(undeclared(key.name, of: Owner.name))
        }
        return value
    }

    /// The picture an image parameter names, read from ``images``; nil when it names none.
    /// - Parameter key: One of the stage's image keys.
    /// - Returns: The picture, or nil.
    /// - Throws: ``StageError`` naming the stage and parameter when the picture cannot be had.
    public subscript<Owner: Stage>(key: Parameter<Owner, Image?>) -> Image? {
        get throws(StageError) {
            guard Owner.name == stage, let value = values[key.name] else { preconditionFailure(undeclared(key.name, of: Owner.name)) }
            guard case .text(let id) = value else { return nil }
            do {
                return try images.image(id: id)
            } catch {
                throw StageError(stage: stage, parameter: key.name, reason: "\(error)")
            }
        }
    }

    private func undeclared(_ name: String, of owner: String) -> String {
        owner == stage
            ? "stage '\(stage)' reads the parameter '\(name)', which it does not list in its parameters (\(values.keys.sorted().joined(separator: ", ")))"
            : "stage '\(stage)' reads '\(name)', a parameter of the stage '\(owner)'"
    }
}
