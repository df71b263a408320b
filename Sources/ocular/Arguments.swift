import ArgumentParser
import Ocular

/// A recipe on the command line: JSON text, or the path of a file holding it. Every command that runs
/// a recipe (`apply`, `process`, `record`) takes it as this type and reads it the same way.
struct RecipeArgument: ExpressibleByArgument, Sendable {
    /// As given.
    let text: String

    init(argument: String) {
        text = argument
    }

    /// The recipe: inline JSON when the text starts with `{`, else the file it names.
    /// - Throws: ``StageError`` naming the file or what in the JSON is wrong.
    func recipe() throws(StageError) -> Recipe {
        text.drop(while: \.isWhitespace).hasPrefix("{") ? try Recipe(json: text) : try Recipe(contentsOfFile: text)
    }
}

// The stages' choices as options' values: ArgumentParser lists the cases in --help (the stage's own
// declaration: one list) and refuses any other name with its own message.
extension FaceDetectionProfile.Name: ExpressibleByArgument {}
extension BlobProfile.Name: ExpressibleByArgument {}
extension BlendMode: ExpressibleByArgument {
    /// A blend mode option's value: the mode of that name, or the library's refusal, which lists the
    /// modes ("unknown blend mode 'x'; the modes are none, average, …"), as ArgumentParser prints it.
    static func parsed(_ argument: String) throws -> BlendMode {
        try BlendMode(named: argument)
    }
}
