import ArgumentParser
import Ocular

/// The per-stage commands' options are the stages' parameters: their defaults, ranges and help come
/// from the declarations, so no number is written twice.
extension ParameterDeclaring {
    /// The declaration's help with what it allows: "How much of the blend shows… (a number from 0
    /// to 1)."; ArgumentParser adds the default, which the option takes from the declaration too.
    var optionHelp: ArgumentHelp {
        guard case .number = descriptor.kind else { return ArgumentHelp(descriptor.help) }
        let sentence = descriptor.help.hasSuffix(".") ? String(descriptor.help.dropLast()) : descriptor.help
        return ArgumentHelp("\(sentence) (\(descriptor.allowed)).")
    }
}

extension Parameter where Value: ParameterValueConvertible {
    /// Checks an option's value by the declaration, worded for the command line:
    /// "--opacity must be from 0 to 1, got 2".
    func check(_ value: Value, option: String) throws {
        do {
            _ = try descriptor.validate(value.parameterValue, stage: Owner.name)
        } catch {
            let allowed = switch descriptor.kind {
            case .number(let minimum, let maximum, _, _): "from \(ParameterValue.number(minimum)) to \(ParameterValue.number(maximum))"
            default: descriptor.allowed
            }
            throw ValidationError("--\(option) must be \(allowed), got \(value.parameterValue)")
        }
    }
}
