/// A recipe or a stage's values that cannot be used: names the stage and the parameter at fault, what is
/// allowed and what was given.
public struct StageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stage at fault, when one is.
    public var stage: String?
    /// The parameter at fault, when one is.
    public var parameter: String?
    /// What is wrong and what is allowed.
    public var reason: String

    public init(stage: String? = nil, parameter: String? = nil, reason: String) {
        self.stage = stage
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String {
        switch (stage, parameter) {
        case (let stage?, let parameter?): "stage '\(stage)', parameter '\(parameter)': \(reason)"
        case (let stage?, nil): "stage '\(stage)': \(reason)"
        default: reason
        }
    }
}

import Foundation

extension StageError: LocalizedError {
    public var errorDescription: String? { description }
}
