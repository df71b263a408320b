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
    public static func == (lhs: StageValues, rhs: StageValues) -> Bool {
        lhs.stage == rhs.stage && lhs.values == rhs.values
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

    /// The classifier a training-list parameter names, from ``images``; `nil` when it names none.
    /// - Throws: ``StageError`` naming the stage and parameter when the classifier cannot be had.
    public func classifier(_ name: String, profile: BlobProfile) throws(StageError) -> BlobClassifier? {
        guard let list = text(name) else { return nil }
        do {
            return try images.classifier(trainingList: list, profile: profile)
        } catch {
            throw StageError(stage: stage, parameter: name, reason: error.description)
        }
    }

    /// The picture an image parameter names, from ``images``; `nil` when it names none.
    /// - Throws: ``StageError`` naming the stage and parameter when the picture cannot be had.
    public func image(_ name: String) throws(StageError) -> Image? {
        guard let id = text(name) else { return nil }
        do {
            return try images.image(id: id)
        } catch {
            throw StageError(stage: stage, parameter: name, reason: error.description)
        }
    }
}
