/// Declares one parameter of a ``Stage``: its name, kind, allowed values and default. The CLI, the
/// studio's controls and the docs are all built from these declarations.
public struct ParameterDescriptor: Sendable, Equatable {
    /// What values a parameter takes.
    public enum Kind: Sendable, Equatable {
        /// A number from `minimum` to `maximum`; `step` is the control's increment, and `integer`
        /// numbers must be whole.
        case number(minimum: Double, maximum: Double, step: Double, integer: Bool)
        /// One of a fixed list of options.
        case choice([Option])
        /// On or off.
        case flag
        /// An sRGB colour, `"#rrggbb"`.
        case colour
        /// A point in normalised coordinates, each of x and y from 0 to 1.
        case point
        /// A picture referenced by id (an uploaded blend source, a gallery item), or none.
        case image
        /// A bean counter's training list referenced by name (a file on the command line, "default"
        /// in the studio), or none.
        case trainingList

        /// The name of the kind in JSON and help text.
        public var name: String {
            switch self {
            case .number: "number"
            case .choice: "choice"
            case .flag: "flag"
            case .colour: "colour"
            case .point: "point"
            case .image: "image"
            case .trainingList: "trainingList"
            }
        }
    }

    /// One option of a choice.
    public struct Option: Sendable, Equatable, Encodable {
        /// What a recipe says.
        public var value: String
        /// What people read.
        public var title: String

        /// Creates an option.
        /// - Parameters:
        ///   - value: What recipes say.
        ///   - title: What people read.
        public init(_ value: String, title: String) {
            self.value = value
            self.title = title
        }
    }

    /// lowerCamelCase, as recipes spell it.
    public var name: String
    /// A short label for controls.
    public var title: String
    /// What values it takes.
    public var kind: Kind
    /// The value when a recipe leaves the parameter out.
    public var defaultValue: ParameterValue
    /// One sentence on what the parameter does.
    public var help: String

    /// A number parameter.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - range: The values allowed.
    ///   - step: The control's increment.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func number(_ name: String, title: String, in range: ClosedRange<Double>, step: Double, default value: Double,
                              help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .number(minimum: range.lowerBound, maximum: range.upperBound, step: step, integer: false),
                            defaultValue: .number(value), help: help)
    }

    /// A whole-number parameter, in steps of `step` from the range's low end.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - range: The values allowed.
    ///   - step: The step from the range's low end.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func integer(_ name: String, title: String, in range: ClosedRange<Int64>, step: Int64 = 1, default value: Int64,
                               help: String) -> ParameterDescriptor {
        precondition(step >= 1 && (value - range.lowerBound) % step == 0, "\(name)'s default \(value) is not on its steps of \(step)")
        return ParameterDescriptor(name: name, title: title,
                                   kind: .number(minimum: Double(range.lowerBound), maximum: Double(range.upperBound), step: Double(step), integer: true),
                                   defaultValue: .number(Double(value)), help: help)
    }

    /// A choice parameter.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - options: The choices, in the order controls show them.
    ///   - value: The default choice's value.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func choice(_ name: String, title: String, options: [Option], default value: String, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .choice(options), defaultValue: .text(value), help: help)
    }

    /// An on/off parameter.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func flag(_ name: String, title: String, default value: Bool, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .flag, defaultValue: .flag(value), help: help)
    }

    /// A colour parameter, `"#rrggbb"`.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default, `"#rrggbb"`.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func colour(_ name: String, title: String, default value: String, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .colour, defaultValue: .text(value), help: help)
    }

    /// A point parameter, x and y from 0 to 1.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - value: The default.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func point(_ name: String, title: String, default value: (x: Double, y: Double), help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .point, defaultValue: .point(x: value.x, y: value.y), help: help)
    }

    /// A picture referenced by id; none by default.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func image(_ name: String, title: String, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .image, defaultValue: .none, help: help)
    }

    /// A training list referenced by name; none by default.
    /// - Parameters:
    ///   - name: The name recipes use.
    ///   - title: What people read.
    ///   - help: One sentence on what it does.
    /// - Returns: The declaration.
    public static func trainingList(_ name: String, title: String, help: String) -> ParameterDescriptor {
        ParameterDescriptor(name: name, title: title, kind: .trainingList, defaultValue: .none, help: help)
    }

    /// What values are allowed, in words: "a whole number from 0 to 4294967295".
    public var allowed: String {
        switch kind {
        case .number(let minimum, let maximum, let step, let integer):
            "\(integer ? "a whole number" : "a number") from \(ParameterValue.number(minimum)) to \(ParameterValue.number(maximum))"
                + (integer && step > 1 ? " in steps of \(ParameterValue.number(step))" : "")
        case .choice(let options):
            "one of \(options.map { "'\($0.value)'" }.joined(separator: ", "))"
        case .flag:
            "true or false"
        case .colour:
            "a colour \"#rrggbb\""
        case .point:
            "a point [x, y] with x and y from 0 to 1"
        case .image:
            "an image id (a string), or null for none"
        case .trainingList:
            "a training list's name (a string), or null for none"
        }
    }

    /// Checks a value against the declaration.
    /// - Parameters:
    ///   - value: The value a recipe gave.
    ///   - stage: The stage's name, for the message.
    /// - Returns: The value, normalised (a colour in lower case).
    /// - Throws: ``StageError`` naming the stage, the parameter, what is allowed and what was given.
    public func validate(_ value: ParameterValue, stage: String) throws(StageError) -> ParameterValue {
        func refuse() -> StageError {
            StageError(stage: stage, parameter: name, reason: "must be \(allowed), got \(value)")
        }
        switch (kind, value) {
        case (.number(let minimum, let maximum, let step, let integer), .number(let number)):
            guard number.isFinite, number >= minimum, number <= maximum,
                  !integer || (number == number.rounded() && (number - minimum).truncatingRemainder(dividingBy: step) == 0)
            else { throw refuse() }
            return value
        case (.choice(let options), .text(let text)):
            guard options.contains(where: { $0.value == text }) else { throw refuse() }
            return value
        case (.flag, .flag):
            return value
        case (.colour, .text(let text)):
            // Parsed as the stage will read it, so what passes here always reads back as a Colour.
            guard let colour = Colour(hex: text) else { throw refuse() }
            return .text(colour.hex)
        case (.point, .point(let x, let y)):
            guard (0...1).contains(x), (0...1).contains(y) else { throw refuse() }
            return value
        case (.image, .text(let id)):
            guard !id.isEmpty, id.count <= 128 else { throw refuse() }
            return value
        case (.image, .none), (.trainingList, .none):
            return value
        case (.trainingList, .text(let name)):
            guard !name.isEmpty, name.utf8.count <= 4096, !name.contains("\0") else { throw refuse() }
            return value
        default:
            throw refuse()
        }
    }
}
