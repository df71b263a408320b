import ArgumentParser
import Foundation
import Ocular
import PNGMessages

@main
struct OcularCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocular",
        abstract: "Computer-vision camera toolkit: inspect, convert, balance and tint images, run recipes of stages; run Ocular Studio.",
        discussion: """
            Images are read with EXIF orientation applied. Output formats follow the file extension \
            (.png, .jpg, .webp, .bmp, .tiff, ...). Errors go to standard error with a non-zero exit status \
            by kind (sysexits): 64 a wrong option, 65 unusable input (a damaged image, a bad recipe), 66 a \
            missing file or item, 69 something unavailable (a camera, cascade files), 70 an internal \
            failure, 73 a full gallery, 74 a file that cannot be read or written, 77 a read-only gallery.
            """,
        version: "\(OcularVersion.current) (OpenCV \(OcularVersion.openCV))",
        subcommands: [InfoCommand.self, ConvertCommand.self, ApplyCommand.self, BlendCommand.self, StagesCommand.self, FiltersCommand.self, WhiteBalanceCommand.self,
                      TintCommand.self, ProcessCommand.self, BatchCommand.self, RecordCommand.self, FacesCommand.self, BlobsCommand.self, ZoomCommand.self, SharpnessCommand.self,
                      GalleryCommand.self, StudioCommand.self]
    )

    /// ArgumentParser's own run, except that Ocular's errors exit with a status by their code's kind
    /// (ArgumentParser gives every error 1), so scripts can tell a bad input from a missing file.
    static func main() async {
        // Ctrl-C and SIGTERM must reach the commands' work on this thread (PartialFiles removes a
        // half-written video, then ends the process by the signal); this thread may start with them
        // blocked (the async entry point's queue drain, or a mask inherited from the parent), which
        // left them pending until the work ended on its own.
        var termination = sigset_t()
        sigemptyset(&termination)
        sigaddset(&termination, SIGINT)
        sigaddset(&termination, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &termination, nil)
        // Frames of a few megabytes are freed and allocated again for every picture or video frame; kept
        // in the process they are reused instead of faulted in again page by page (1,300 faults a 720p
        // picture, a third of a white balance's time in `ocular batch`).
        FrameMemory.keepFreedFramesForReuse()
        // OpenCV's and libpng's own messages stay off standard error unless --verbose asks (ReadOptions).
        LibraryMessages.show(false)
        png_messages_route(nil)
        do {
            try refuseFilesReadAsOptions(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as any CodedError {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(error.code.kind.exitStatus)
        } catch {
            exit(withError: error)
        }
    }
}

extension OcularCommand {
    /// A file whose name starts with a dash ("-dash.png") is read by ArgumentParser as a cluster of
    /// short options (-d -a -s -h), and the -h among them printed the help and exited 0 with nothing
    /// done. Before `--`, an argument that looks like such a cluster and names something on disk is
    /// refused, saying how to name it.
    static func refuseFilesReadAsOptions(_ arguments: [String]) throws {
        for argument in arguments.prefix(while: { $0 != "--" })
        where argument.count > 2 && argument.hasPrefix("-") && !argument.hasPrefix("--") && FileManager.default.fileExists(atPath: argument) {
            throw ValidationError("'\(argument)' is a file, but a name that starts with '-' is read as options; "
                + "write it as ./\(argument), or put -- before it")
        }
    }
}

extension ErrorCode.Kind {
    /// sysexits.h's statuses.
    var exitStatus: Int32 {
        switch self {
        case .badInput, .tooLarge: 65    // EX_DATAERR
        case .notFound: 66               // EX_NOINPUT
        case .unavailable: 69            // EX_UNAVAILABLE
        case .internalFailure: 70        // EX_SOFTWARE
        case .full: 73                   // EX_CANTCREAT
        case .ioFailure: 74              // EX_IOERR
        case .refused: 77                // EX_NOPERM
        }
    }
}
