import ArgumentParser
import Ocular

/// `--save` for commands that make a picture: it goes into the gallery with its recipe.
struct SaveOptions: ParsableArguments {
    @Flag(help: "Also save the result in the gallery (losslessly, as PNG) with the recipe that made it.")
    var save = false

    @Option(help: "The caption of the saved picture (some commands suggest one).")
    var caption = ""

    @OptionGroup var gallery: GalleryOptions

    /// A command that makes a picture must write it somewhere.
    func requireDestination(output: String?) throws {
        guard output != nil || save else {
            throw ValidationError("give -o FILE to write the result, --save to put it in the gallery, or both")
        }
    }

    /// Saves `picture` when --save was given and says where it went; the caption is --caption's,
    /// else `defaultCaption`.
    func saveIfAsked(_ picture: Image, recipe: Recipe, source: String, defaultCaption: String = "") throws {
        guard save else { return }
        let opened = try gallery.open()
        let item = try opened.save(picture, recipe: recipe, source: source, caption: caption.isEmpty ? defaultCaption : caption)
        print("saved to the gallery as item \(item.id): \(opened.path(of: item))")
    }
}
