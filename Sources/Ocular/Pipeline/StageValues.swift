/// A stage's parameter values, every declared one present and checked against its declaration.
public struct StageValues: Sendable, Equatable {
    /// The stage they belong to.
    public let stage: String
    /// By parameter name.
    public let values: [String: ParameterValue]

    /// Checks the given values against the declarations and fills in the defaults.
    /// - Parameters:
    ///   - stage: The stage's name, for messages.
    ///   - declarations: The stage's parameters.
    ///   - given: The values a recipe gave.
    /// - Throws: ``StageError`` for a parameter the stage does not have or a value it does not allow.
    public init(stage: String, declarations: [ParameterDescriptor], given: [String: ParameterValue]) throws(StageError) {
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
    }

    /// A number parameter's value (0 for a name that is not a number parameter).
    public func number(_ name: String) -> Double {
        if case .number(let number) = values[name] { return number }
        return 0
    }

    /// A whole-number parameter's value (declared `integer`, so exact).
    public func integer(_ name: String) -> Int64 {
        let number = self.number(name)
        return number.isFinite && abs(number) < 9.2e18 ? Int64(number) : 0
    }

    /// A flag's value.
    public func flag(_ name: String) -> Bool {
        if case .flag(let flag) = values[name] { return flag }
        return false
    }

    /// A choice's, colour's or image id's value; `nil` for "no image".
    public func text(_ name: String) -> String? {
        if case .text(let text) = values[name] { return text }
        return nil
    }

    /// A point's value.
    public func point(_ name: String) -> (x: Double, y: Double) {
        if case .point(let x, let y) = values[name] { return (x, y) }
        return (0, 0)
    }
}
