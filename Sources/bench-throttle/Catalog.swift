import Throttling

/// What `--list` prints.
enum Catalog {
    static func listing() -> String {
        var out = "scenarios (--scenario):\n"
        for s in ThrottleScenario.catalog {
            out += "  \(s.name.padding(18))\(s.summary)\n"
        }
        out += "\nvariants (--variant):\n"
        for p in ThrottlePolicy.allCases {
            out += "  \(p.rawValue.padding(22))\(p.summary)\n"
        }
        out += "\ndevices (--device): \(DeviceProfile.all.map(\.name).joined(separator: ", "))\n"
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
