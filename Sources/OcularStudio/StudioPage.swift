/// The studio's pages, in the order its bar lists them. A page's name is what its HTML declares
/// (`<body data-page="manyMasks">`) and what it streams under (`/api/stream?page=manyMasks`), so page
/// actions serve it by name; the bar's links come from here through ``PagesController``.
public enum StudioPage: String, CaseIterable, Sendable, Encodable {
    case lightWork, manyMasks, beanCounter, samples, filters, gallery

    /// What the bar says: "Many Masks".
    public var title: String {
        switch self {
        case .lightWork: "Light Work"
        case .manyMasks: "Many Masks"
        case .beanCounter: "Bean Counter"
        case .samples: "Samples"
        case .filters: "Filters"
        case .gallery: "Gallery"
        }
    }

    /// Its file in the web app's folder, named as the page is: `many-masks.html`, whose module is
    /// `many-masks.js`. So a feature has one name in every layer: the page, its files, its actions
    /// (``ManyMasksAction``) and their folder.
    public var file: String { fileStem + ".html" }

    /// `manyMasks` as a file name: `many-masks`.
    var fileStem: String {
        rawValue.reduce(into: "") { stem, character in
            if character.isUppercase { stem += "-" + character.lowercased() } else { stem.append(character) }
        }
    }

    /// The page the studio's root address shows.
    public static let root = StudioPage.lightWork

    /// Where the bar links to, relative to the studio's root: the first page is the root itself.
    public var href: String { self == .root ? "./" : file }

    /// The files the page had before its files took its name, which the studio redirects to it
    /// (``PageAddressMiddleware``) so that bookmarks and home-screen icons still open it; kept for one
    /// version, as the library's former spellings are.
    public var formerFiles: [String] {
        switch self {
        case .lightWork: ["index.html"]
        case .manyMasks: ["masks.html"]
        case .beanCounter: ["beans.html"]
        case .samples, .filters, .gallery: []
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, title, href
    }

    /// `{"name":"manyMasks","title":"Many Masks","href":"many-masks.html"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rawValue, forKey: .name)
        try container.encode(title, forKey: .title)
        try container.encode(href, forKey: .href)
    }
}
