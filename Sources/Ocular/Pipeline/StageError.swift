/// A recipe or a stage's values that cannot be used: names the stage and the parameter at fault, what is
/// allowed and what was given.
public struct StageError: CodedError, Equatable, Sendable {
    /// The stage at fault, when one is.
    public var stage: String?
    /// The parameter at fault, when one is.
    public var parameter: String?
    /// What is wrong and what is allowed.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - stage: The stage at fault, if known.
    ///   - parameter: Its parameter at fault, if any.
    ///   - reason: Why.
    public init(stage: String? = nil, parameter: String? = nil, reason: String) {
        self.stage = stage
        self.parameter = parameter
        self.reason = reason
    }

    /// Always `stage.invalid`: a recipe, or values, that cannot be used.
    public var code: ErrorCode { ErrorCode("stage.invalid", .badInput) }

    /// "stage 'S', parameter 'P': reason".
    public var description: String {
        switch (stage, parameter) {
        case (let stage?, let parameter?): "stage \(Self.quoted(stage)), parameter \(Self.quoted(parameter)): \(reason)"
        case (let stage?, nil): "stage \(Self.quoted(stage)): \(reason)"
        default: reason
        }
    }

    /// A name or value from a recipe, quoted for a message: at most 60 characters, one line, so that a
    /// hostile recipe cannot make its error message huge.
    /// - Parameters:
    ///   - text: The name or value.
    ///   - quote: The quotation mark.
    /// - Returns: The quoted text.
    public static func quoted(_ text: String, quote: Character = "'") -> String {
        let line = text.map { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? " " : String($0) }.joined()
        let shown = line.count > 60 ? line.prefix(59) + "…" : Substring(line)
        return "\(quote)\(shown)\(quote)"
    }
}
