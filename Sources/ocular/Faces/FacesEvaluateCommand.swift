import ArgumentParser
import Foundation
import Ocular
import OcularEvaluation

struct FacesEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Find faces in labelled pictures and print recall, precision and mean IoU per species.",
        discussion: """
            --labelled names a JSON list [{"file":"a.jpg","faces":[{"species":"human","bounds":[x,y,w,h]}]}] \
            (files relative to the list; a picture without faces checks for false boxes), or a folder holding \
            faces.json, such as `faces sweep` writes, or an object {"files":{PATH:{"faces":[{"species","bbox":[x,y,w,h]}]}}} \
            as the shared data's labels are (each PATH from the list's folder or the nearest ancestor that holds it). A box finds a labelled face of its species when their \
            intersection over union is at least 0.5. Then the misses and the false boxes, picture by picture; \
            entries with a "group" are also reported per group. --baseline opencv also runs what a user of plain \
            OpenCV would (haarcascade_frontalface_alt on the equalised gray frame, scale 1.1, 4 neighbours, \
            faces from 24 px) on the same pictures in the same run, and prints it beside the profile.
            """)

    /// What else to run on the same pictures, for comparison.
    enum Baseline: String, ExpressibleByArgument, CaseIterable {
        /// Plain OpenCV's frontal face cascade, as four lines of Python would run it.
        case opencv
    }

    @Option(help: ArgumentHelp("The labelled pictures: a list, or a folder holding faces.json.", valueName: "folder|file"))
    var labelled: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(help: "Also score plain OpenCV's cascade on the same pictures, and print it beside the profile.")
    var baseline: Baseline?

    @OptionGroup var detection: FaceDetectionOptions

    @OptionGroup var read: ReadOptions

    func run() throws {
        let list = try FaceLabelList(contentsOf: labelled)
        let detector = try detection.detector()
        let plain = baseline == nil ? nil : try OpenCVFaceBaseline(cascades: .shipped(.haar, in: detection.cascades))
        let detectors: [any FaceFinding] = [detector] + (plain.map { [$0] } ?? [])
        let (evaluations, problems) = try ProgressDisplay.showing("evaluating", total: list.entries.count, unit: "pictures") { progress in
            try FaceEvaluation.evaluate(detectors, on: list, readOptions: read.imageReadOptions) { index, _, _ in
                if index > 0 { progress.advance() }
            }
        }
        for problem in problems { FileHandle.standardError.write(Data("ocular: not evaluated: \(problem)\n".utf8)) }
        let profile = detector.usesNetwork || detector.profile.network == nil ? detector.profile.name : "\(detector.profile.name) (cascades: no face network)"
        let baselineEvaluation = evaluations.count > 1 ? evaluations[1] : nil
        if json {
            print(try Self.json(evaluations[0], profile: profile, baseline: baselineEvaluation, problems: problems))
        } else {
            print(Self.report(evaluations[0], profile: profile))
            if let baselineEvaluation { print("\n" + Self.comparison(evaluations[0], profile: profile, baseline: baselineEvaluation)) }
        }
        if evaluations[0].pictures == 0 { throw ExitCode(1) }
    }

    struct Figures: Encodable {
        var labelled: Int, found: Int, matched: Int, recall: Double, precision: Double, meanIoU: Double

        init(_ tally: FaceEvaluation.Tally) {
            labelled = tally.labelled
            found = tally.found
            matched = tally.matched
            recall = Self.rounded(tally.recall)
            precision = Self.rounded(tally.precision)
            meanIoU = Self.rounded(tally.meanOverlap)
        }

        static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    }

    static func json(_ evaluation: FaceEvaluation, profile: String, baseline: FaceEvaluation? = nil, problems: [TrainingProblem]) throws -> String {
        struct Mistake: Encodable { var file: String; var species: Species; var bounds: [Int] }
        struct Summary: Encodable {
            var name: String, overall: Figures, species: [String: Figures], groups: [String: [String: Figures]]
        }
        struct Report: Encodable {
            var profile: String, pictures: Int, overall: Figures, species: [String: Figures], groups: [String: [String: Figures]]
            var misses: [Mistake], falseBoxes: [Mistake], unreadable: [String]
            var baseline: Summary?
        }
        func species(_ evaluation: FaceEvaluation) -> [String: Figures] {
            Dictionary(uniqueKeysWithValues: evaluation.tallies.map { ($0.key.rawValue, Figures($0.value)) })
        }
        func groups(_ evaluation: FaceEvaluation) -> [String: [String: Figures]] {
            evaluation.groups.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, Figures($0.value)) }) }
        }
        func mistakes(_ list: [FaceEvaluation.Mistake]) -> [Mistake] {
            list.map { Mistake(file: $0.picture, species: $0.face.species, bounds: [$0.face.bounds.x, $0.face.bounds.y, $0.face.bounds.width, $0.face.bounds.height]) }
        }
        let report = Report(profile: profile, pictures: evaluation.pictures, overall: Figures(evaluation.overall), species: species(evaluation),
                            groups: groups(evaluation), misses: mistakes(evaluation.misses), falseBoxes: mistakes(evaluation.falseBoxes),
                            unreadable: problems.map(\.description),
                            baseline: baseline.map { Summary(name: OpenCVFaceBaseline.name, overall: Figures($0.overall), species: species($0), groups: groups($0)) })
        return try JSONOutput.text(report)
    }

    /// The profile's and the baseline's people found, side by side: overall and per group (recall / precision).
    static func comparison(_ evaluation: FaceEvaluation, profile: String, baseline: FaceEvaluation) -> String {
        func cell(_ tally: FaceEvaluation.Tally) -> String {
            String(format: "%5.1f %% / %5.1f %%", tally.recall * 100, tally.precision * 100).padding(toLength: 24, withPad: " ", startingAt: 0)
        }
        let nameWidth = max(22, (evaluation.groups.keys.map(\.count).max() ?? 0) + 2)
        func row(_ name: String, _ ours: FaceEvaluation.Tally, _ theirs: FaceEvaluation.Tally) -> String {
            let line = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + String(format: "%8d  ", ours.labelled) + cell(ours) + cell(theirs)
            return String(line.reversed().drop { $0 == " " }.reversed())
        }
        var lines = ["people: \(profile) beside \(OpenCVFaceBaseline.name) (frontalface_alt, equalised gray, scale 1.1, 4 neighbours, from 24 px), recall / precision",
                     "".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "labelled  " + profile.padding(toLength: 24, withPad: " ", startingAt: 0)
                        + OpenCVFaceBaseline.name,
                     row("all", evaluation.tally(.human), baseline.tally(.human))]
        for group in evaluation.groups.keys.sorted() where (evaluation.groups[group]?[.human]?.labelled ?? 0) > 0 {
            lines.append(row(group, evaluation.groups[group]?[.human] ?? .init(), baseline.groups[group]?[.human] ?? .init()))
        }
        return lines.joined(separator: "\n")
    }

    /// A table of the figures per species (and per group), then the mistakes.
    static func report(_ evaluation: FaceEvaluation, profile: String) -> String {
        func percent(_ value: Double) -> String { String(format: "%5.1f %%", value * 100) }
        func row(_ name: String, _ tally: FaceEvaluation.Tally) -> String {
            name.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%8d %8d %8d  ", tally.labelled, tally.found, tally.matched)
                + "\(percent(tally.recall))  \(percent(tally.precision))  " + String(format: "%.2f", tally.meanOverlap)
        }
        let header = "".padding(toLength: 22, withPad: " ", startingAt: 0) + "labelled    found  matched    recall  precision  mean IoU"
        var lines = ["\(evaluation.pictures) pictures, \(profile) profile (a find: IoU ≥ \(FaceEvaluation.requiredOverlap))", "", header]
        for species in Species.allCases where evaluation.tallies[species] != nil { lines.append(row(species.rawValue, evaluation.tally(species))) }
        lines.append(row("all", evaluation.overall))
        if !evaluation.groups.isEmpty {
            lines += ["", "per group", header]
            for group in evaluation.groups.keys.sorted() {
                for (species, tally) in evaluation.groups[group]!.sorted(by: { $0.key.rawValue > $1.key.rawValue }) {
                    lines.append(row("\(group) \(species.rawValue)", tally))
                }
                if evaluation.groups[group]!.isEmpty { lines.append(row("\(group)", FaceEvaluation.Tally())) }
            }
        }
        func list(_ title: String, _ mistakes: [FaceEvaluation.Mistake]) {
            guard !mistakes.isEmpty else { return }
            lines += ["", "\(title) (\(mistakes.count))"]
            lines += mistakes.map { "  \($0.picture): \($0.face.species) \($0.face.bounds)" }
        }
        list("misses", evaluation.misses)
        list("false boxes", evaluation.falseBoxes)
        return lines.joined(separator: "\n")
    }
}
