import Foundation

/// What a table holds: how many objects of each label, and what the coins among them are worth
/// ("3 pinto beans, 2 romano beans, 1 loonie, 2 Canadian quarters: $1.50"). The blobs stage attaches
/// it to each frame it names, steadied over the last few frames; the studio sends it as `"counts"`.
public struct BlobTally: Sendable, Hashable, FrameAnnotation {
    public static let kind = "count"
    public static let group = "counts"
    /// One label's count.
    public struct Line: Sendable, Hashable, Encodable {
        /// The label counted.
        public var label: Int
        /// What the label means ("10-cent coin").
        public var description: String
        /// How many blobs have it.
        public var count: Int
        /// What one is worth, when the training list says.
        public var value: Double?
        /// The currency of the worth, when the training list gives one.
        public var currency: String?
    }

    /// By label, unidentified (0) last; labels with no object are left out.
    public let lines: [Line]
    /// The money by currency, each rounded to the cent.
    public let totals: [String: Double]

    /// How many objects in all.
    public var count: Int { lines.reduce(0) { $0 + $1.count } }

    private enum CodingKeys: String, CodingKey { case lines, totals, text, count }

    /// `{"lines": [{label, description, count, value?, currency?}], "totals": {"CAD": 1.5}, "text", "count"}`.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lines, forKey: .lines)
        try container.encode(totals, forKey: .totals)
        try container.encode(text, forKey: .text)
        try container.encode(count, forKey: .count)
    }

    /// The tally of counts by label, named and valued by the classifier's list.
    /// - Parameters:
    ///   - counts: How many blobs of each label.
    ///   - classifier: Names the labels and knows their worth.
    public init(counts: [Int: Int], classifier: BlobClassifier) {
        let labels = counts.keys.filter { counts[$0, default: 0] > 0 }.sorted { ($0 == 0 ? Int.max : $0) < ($1 == 0 ? Int.max : $1) }
        lines = labels.map { label in
            let worth = classifier.values[label]
            return Line(label: label, description: classifier.description(of: label), count: counts[label, default: 0],
                        value: worth?.value, currency: worth?.currency)
        }
        var totals: [String: Double] = [:]
        for line in lines {
            if let value = line.value, let currency = line.currency { totals[currency, default: 0] += value * Double(line.count) }
        }
        self.totals = totals.mapValues { ($0 * 100).rounded() / 100 }
    }

    /// The tally of classified blobs.
    /// - Parameters:
    ///   - blobs: The blobs, classified.
    ///   - classifier: Names the labels and knows their worth.
    public init(blobs: [Blob], classifier: BlobClassifier) {
        self.init(counts: Self.counts(of: blobs), classifier: classifier)
    }

    /// How many blobs of each label.
    /// - Parameter blobs: The blobs, classified.
    /// - Returns: The count by label.
    public static func counts(of blobs: [Blob]) -> [Int: Int] {
        blobs.reduce(into: [:]) { $0[$1.label, default: 0] += 1 }
    }

    /// "3 pinto beans, 2 romano beans, 1 loonie: $1.50"; "nothing" for an empty table.
    public var text: String {
        guard !lines.isEmpty else { return "nothing" }
        let items = lines.map { "\($0.count) \(Self.name($0.description, count: $0.count))" }.joined(separator: ", ")
        let money = totals.keys.sorted().map { Self.money(totals[$0] ?? 0, currency: $0) }.joined(separator: " + ")
        return money.isEmpty ? items : "\(items): \(money)"
    }

    /// A label's short name (before any comma: "loonie, Canadian dollar" is a "loonie"), in the
    /// plural for any count but one, by English's regular rules; a word ending in "ed" is taken
    /// for an adjective ("3 unidentified") and kept.
    static func name(_ description: String, count: Int) -> String {
        let short = description.split(separator: ",", maxSplits: 1).first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? description
        guard count != 1, let last = short.last, last.isLetter else { return short }
        let lowered = short.lowercased()
        if lowered.hasSuffix("ed") { return short }
        if ["s", "x", "z"].contains(String(last).lowercased()) || lowered.hasSuffix("ch") || lowered.hasSuffix("sh") { return short + "es" }
        if last == "y", let before = short.dropLast().last, !"aeiou".contains(before.lowercased()) { return short.dropLast() + "ies" }
        return short + "s"
    }

    /// "$1.50", "€2.00", "£0.20", "¥300", else "1.50 CHF".
    /// - Parameters:
    ///   - amount: The amount.
    ///   - currency: Its ISO code.
    /// - Returns: The amount as people write it.
    public static func money(_ amount: Double, currency: String) -> String {
        let symbols = ["CAD": "$", "USD": "$", "AUD": "$", "NZD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"]
        let digits = currency == "JPY" ? 0 : 2
        let number = String(format: "%.\(digits)f", amount)
        return symbols[currency].map { $0 + number } ?? "\(number) \(currency)"
    }

    /// Steadies a live tally: each label's count is the median of its counts over the last few
    /// frames, so one frame that misses or splits an object does not make the numbers flicker.
    public struct Smoother: Sendable {
        /// How many frames the median is taken over.
        public let window: Int
        private var recent: [[Int: Int]] = []

        /// Creates a smoother.
        /// - Parameter window: How many frames' counts it takes the most frequent of.
        public init(window: Int = 5) {
            self.window = max(1, window)
        }

        /// Adds a frame's counts and returns the steadied counts.
        /// - Parameter counts: This frame's count by label.
        /// - Returns: The most frequent count of each label over the window.
        public mutating func add(_ counts: [Int: Int]) -> [Int: Int] {
            recent.append(counts)
            if recent.count > window { recent.removeFirst(recent.count - window) }
            let labels = Set(recent.flatMap(\.keys))
            var steady: [Int: Int] = [:]
            for label in labels {
                let values = recent.map { $0[label, default: 0] }.sorted()
                // The lower median of an even count: an object must be seen in most frames to count.
                let median = values[(values.count - 1) / 2]
                if median > 0 { steady[label] = median }
            }
            return steady
        }

        /// Forgets the frames seen (a new scene, another recipe).
        public mutating func reset() {
            recent.removeAll()
        }
    }
}
