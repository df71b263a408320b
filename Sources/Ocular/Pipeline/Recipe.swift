import Foundation

/// An ordered list of stages with their parameter values, as JSON:
/// `{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}`. Omitted parameters take their
/// defaults. The same recipe drives `ocular apply`, the studio's settings and the gallery's record of
/// how a picture was made.
public struct Recipe: Sendable, Equatable, Codable {
    /// One stage of a recipe and the values it sets.
    public struct Step: Sendable, Equatable, Codable {
        /// The stage's name, as the registry knows it.
        public var stage: String
        /// The parameter values set; the rest take their defaults.
        public var values: [String: ParameterValue]

        /// Creates a step.
        /// - Parameters:
        ///   - stage: The stage's name.
        ///   - values: The parameters set, by name.
        public init(_ stage: String, _ values: [String: ParameterValue] = [:]) {
            self.stage = stage
            self.values = values
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Decodes `{"stage": NAME, PARAMETER: VALUE, …}`.
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` when the stage's name is missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            stage = try container.decode(String.self, forKey: Key(stringValue: "stage"))
            var values: [String: ParameterValue] = [:]
            for key in container.allKeys where key.stringValue != "stage" {
                values[key.stringValue] = try container.decode(ParameterValue.self, forKey: key)
            }
            self.values = values
        }

        /// Encodes the step as `{"stage": NAME, PARAMETER: VALUE, …}`.
        /// - Parameter encoder: The encoder.
        /// - Throws: What the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(stage, forKey: Key(stringValue: "stage"))
            for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
        }
    }

    /// The stages, applied in this order.
    public var stages: [Step]

    /// Creates a recipe.
    /// - Parameter stages: The steps, in order.
    public init(stages: [Step] = []) {
        self.stages = stages
    }

    /// More stages than any use needs; a longer recipe is refused before any stage is built, so that
    /// one studio client cannot make every frame cost thousands of passes.
    public static let maximumStages = 64

    private enum CodingKeys: String, CodingKey {
        case stages
    }

    /// Decodes `{"stages": […]}`.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when there are more than ``maximumStages`` steps or one is not a step.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A misspelt key ("stage" for "stages") would otherwise be ignored and the recipe run empty.
        let keys = try decoder.container(keyedBy: Step.Key.self).allKeys.map(\.stringValue)
        if let unknown = keys.filter({ $0 != CodingKeys.stages.stringValue }).sorted().first {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(StageError.quoted(unknown)) is no part of a recipe; it has only 'stages'"))
        }
        stages = try container.decode([Step].self, forKey: .stages)
        guard stages.count <= Self.maximumStages else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [CodingKeys.stages],
                debugDescription: "\(stages.count) stages, more than the \(Self.maximumStages) a recipe may have"))
        }
    }

    /// Reads a recipe from JSON text.
    /// - Parameter json: `{"stages": [{"stage": NAME, PARAMETER: VALUE, …}, …]}`.
    /// - Throws: ``StageError`` saying where the text stops being a recipe.
    public init(json: String) throws(StageError) {
        try self.init(jsonData: Data(json.utf8))
    }

    /// Reads a recipe from JSON bytes.
    /// - Parameter jsonData: The JSON, UTF-8.
    /// - Throws: ``StageError`` saying where the bytes stop being a recipe.
    public init(jsonData: Data) throws(StageError) {
        do {
            self = try JSONDecoder().decode(Recipe.self, from: jsonData)
        } catch let error as DecodingError {
            throw StageError(reason: "not a recipe: \(Self.explain(error)); a recipe looks like "
                + #"{"stages":[{"stage":"whiteBalance"},{"stage":"tint","seed":7}]}"#)
        } catch {
            throw StageError(reason: "not a recipe: \(error)")
        }
        // Another reader of the same text (a browser, Python) would keep a repeated key's last value,
        // Foundation's decoder kept its first: the recipe would not be the one its writer meant.
        if let repeated = JSONDuplicateKeys.first(in: jsonData) {
            throw StageError(reason: "not a recipe: it names \(StageError.quoted(repeated)) twice in one object; each key may appear once")
        }
    }

    /// The recipe as compact JSON with sorted keys.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value is a string, number, bool, pair or null: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"stages":[]}"#
    }

    /// Where and why decoding a recipe stopped, in words: "stages[1] has no 'stage'".
    /// - Parameter error: The decoder's error.
    /// - Returns: The explanation.
    public static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\(StageError.quoted($0.stringValue).dropFirst().dropLast())" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = place(context.codingPath)
            return at.isEmpty ? "no \(StageError.quoted(key.stringValue))" : "\(at) has no \(StageError.quoted(key.stringValue))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let at = place(context.codingPath)
            let expected = context.codingPath.last?.stringValue == "stage" ? "a stage name (a string)"
                : context.codingPath.last?.stringValue == "stages" ? "a list of stages" : "another kind of value"
            return at.isEmpty ? "not a JSON object" : "\(at) should be \(expected)"
        case .dataCorrupted(let context):
            let at = place(context.codingPath)
            // Foundation's own message for bad JSON is long and names its internals; ours are short.
            let own = context.underlyingError == nil && !context.debugDescription.contains("JSON")
            if at.isEmpty { return own ? context.debugDescription : "not valid JSON" }
            return "\(at): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension ParameterValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
    /// A number.
    /// - Parameter value: The number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A flag.
    /// - Parameter value: The flag.
    public init(booleanLiteral value: Bool) { self = .flag(value) }
    /// A text: a choice, a colour, a file.
    /// - Parameter value: The text.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension Recipe {
    /// Recipes are small; a larger file is not one.
    public static let largestFileBytes = 1 << 20

    /// Reads a recipe from a JSON file.
    /// - Parameter path: The file, at most ``largestFileBytes``.
    /// - Throws: ``StageError`` naming the file and why it cannot be read or is not a recipe.
    public init(contentsOfFile path: String) throws(StageError) {
        let size: Int
        let data: Data
        do throws(OcularError) {
            size = try FileAccess.regularFileSize(path)
            data = size <= Self.largestFileBytes ? try FileAccess.read(path) : Data()
        } catch {
            throw StageError(reason: error.description)
        }
        guard size <= Self.largestFileBytes else {
            throw StageError(reason: "'\(path)' is not a recipe: it holds \(size) bytes, and a recipe is at most \(Self.largestFileBytes)")
        }
        do {
            try self.init(jsonData: data)
        } catch {
            throw StageError(reason: "'\(path)' is \(error.reason)")
        }
    }
}
