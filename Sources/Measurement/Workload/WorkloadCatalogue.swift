/// What `--list` prints for a workload: its named choices, each with a one-line description.
public struct WorkloadCatalogue: Sendable {
    public struct Entry: Sendable {
        public var name: String
        public var summary: String
        /// Part of the default run.
        public var isDefault: Bool
        /// Lines shown under it by `--list --verbose` (a variant's parameters).
        public var details: [String] = []

        public init(_ name: String, _ summary: String, isDefault: Bool = false) {
            self.name = name
            self.summary = summary
            self.isDefault = isDefault
        }
    }

    public struct Section: Sendable {
        /// e.g. `scenarios (--scenario)`.
        public var title: String
        public var entries: [Entry]

        public init(_ title: String, _ entries: [Entry]) {
            self.title = title
            self.entries = entries
        }
    }

    public var sections: [Section]
    /// Free lines after the sections (factors and their defaults, devices, …).
    public var footer: [String]

    public init(sections: [Section], footer: [String] = []) {
        self.sections = sections
        self.footer = footer
    }

    /// The listing, names padded into a column; `verbose` adds each entry's details under it.
    public func render(verbose: Bool = false) -> String {
        let width = (sections.flatMap(\.entries).map(\.name.count).max() ?? 0) + 2
        var out = ""
        for (i, section) in sections.enumerated() {
            if i > 0 { out += "\n" }
            out += "\(section.title):\n"
            for e in section.entries {
                let pad = String(repeating: " ", count: max(1, width - e.name.count))
                out += "  \(e.name)\(pad)\(e.summary)\(e.isDefault ? "  [default]" : "")\n"
                if verbose { for line in e.details { out += "      \(line)\n" } }
            }
        }
        if !footer.isEmpty { out += "\n" + footer.joined(separator: "\n") + "\n" }
        return out
    }
}
