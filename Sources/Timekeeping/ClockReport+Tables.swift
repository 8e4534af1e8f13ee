import Measurement

/// The tables `bench-clock` prints: verdicts per scenario, read costs, the `--list` text.
extension ClockReport {
    /// Median under faketime minus median without, per "source|reader".
    package static func overhead(faked: [ReadCost.Sample], baseline: [ReadCost.Sample]) -> [String: Double] {
        func medians(_ samples: [ReadCost.Sample]) -> [String: Double] {
            Dictionary(grouping: samples, by: { "\($0.source.name)|\($0.reader)" }).compactMapValues { Statistics.median($0.map(\.nanosecondsPerRead)) }
        }
        let f = medians(faked), b = medians(baseline)
        return f.compactMapValues { $0 }.reduce(into: [:]) { out, kv in
            if let base = b[kv.key] { out[kv.key] = kv.value - base }
        }
    }

    package static func simTable(scenarios: [SkewScenario], clients: [ClientKind], sources: [ClockKind], verdicts: [String: [ClientKind: [ClockKind: ClockReport.Verdict]]]) -> String {
        var out = ""
        var clean: [String] = []
        for scenario in scenarios {
            guard let byClient = verdicts[scenario.name] else { continue }
            let broke = byClient.values.contains { $0.values.contains(where: \.broke) }
            guard broke else { clean.append(scenario.name); continue }
            out += "scenario \(scenario.name): \(scenario.summary)\n"
            out += verdictTable(clients: clients, sources: sources, verdicts: byClient) + "\n"
        }
        if !clean.isEmpty { out += "scenarios where no client broke on any clock: \(clean.joined(separator: ", "))\n\n" }
        return out
    }

    package static func verdictTable(clients: [ClientKind], sources: [ClockKind], verdicts: [ClientKind: [ClockKind: ClockReport.Verdict]]) -> String {
        var table = TextTable(columns: ["client"] + sources.map(\.name))
        for client in clients {
            guard let row = verdicts[client] else { continue }
            table.add([client.name] + sources.map { row[$0]?.text ?? "-" })
        }
        return table.render()
    }

    package static func costTable(_ costs: [ReadCost.Sample], overhead: [String: Double]?) -> String {
        guard !costs.isEmpty else { return "" }
        var columns = ["source", "Swift API", "Swift ns/read", "C clock_gettime ns/read"]
        if overhead != nil { columns += ["faketime +ns (Swift)", "faketime +ns (C)"] }
        var table = TextTable(columns: columns, rightAligned: Set(2..<columns.count))
        let grouped = Dictionary(grouping: costs, by: { "\($0.source.name)|\($0.reader)" })
        func cell(_ key: String) -> String {
            let v = (grouped[key] ?? []).map(\.nanosecondsPerRead)
            guard let m = Statistics.median(v), let lo = v.min(), let hi = v.max() else { return "-" }
            return "\(TextTable.number(m)) [\(TextTable.number(lo))–\(TextTable.number(hi))]"
        }
        for source in ClockKind.allCases where costs.contains(where: { $0.source == source }) {
            var row = [source.name, ReadCost.apiName(source), cell("\(source.name)|read-swift-api"), cell("\(source.name)|read-c-loop")]
            if let overhead {
                row.append(overhead["\(source.name)|read-swift-api"].map(TextTable.number) ?? "-")
                row.append(overhead["\(source.name)|read-c-loop"].map(TextTable.number) ?? "-")
            }
            table.add(row)
        }
        return "clock read cost, median [min–max] over repetitions\n" + table.render()
    }

    package static func listing() -> String {
        var out = "scenarios (--scenario):\n"
        for s in SkewScenario.catalogue { out += "  \(s.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(s.summary)\n" }
        out += "\nvariants = clock sources (--variant):\n"
        for k in ClockKind.allCases { out += "  \(k.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(k.summary)\n" }
        out += "\nclients (--client):\n"
        for c in ClientKind.allCases { out += "  \(c.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(c.summary)\n" }
        out += "\n--skew FILE: CSV with header \(SkewFileReader.header); kind step (value s), slew (value ppm for duration_s), suspend (duration_s), drift (value ppm, duration_s or empty)\n"
        return out
    }
}
