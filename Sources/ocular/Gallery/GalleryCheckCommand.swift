import ArgumentParser
import Foundation
import Ocular
import OcularGallery

struct GalleryCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the whole gallery: every file against its checksum, the folder against the database, and the database itself.",
        discussion: "Exits with status 1 when anything is wrong, after listing every problem.")

    @OptionGroup var gallery: GalleryOptions

    func run() throws {
        let gallery = try gallery.open()
        var problems = gallery.reconciliation.unregisteredFiles.count + gallery.reconciliation.itemsWithoutFile.count
        let items = try gallery.items(limit: .max)
        try ProgressDisplay.showing("Checking", total: items.count, unit: "files") { progress in
            for item in items {
                do {
                    try gallery.verify(item)
                } catch GalleryError.missingFile {
                    // Reported by the reconciliation already.
                } catch {
                    problems += 1
                    FileHandle.standardError.write(Data("ocular: gallery: \(error)\n".utf8))
                }
                progress.advance()
            }
        }
        for problem in try gallery.databaseProblems() {
            problems += 1
            FileHandle.standardError.write(Data("ocular: gallery: database: \(problem)\n".utf8))
        }
        print("\(gallery.folder): \(items.count) items, \(problems == 0 ? "no problems" : "\(problems) problems")")
        if problems > 0 { throw ExitCode(1) }
    }
}
