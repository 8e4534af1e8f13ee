import Records

/// The tables `bench-clock` prints: verdicts per scenario, read costs, the `--list` text.
extension ClockReport {
    /// Which loop read which clock: the key of a read cost.
    package struct ReaderKey: Hashable, Sendable {
        package var source: ClockKind
        package var reader: String
    }

    /// Median under faketime minus median without, per source and reader.
    package static func overhead(faked: [ReadCost.Sample], baseline: [ReadCost.Sample]) -> [ReaderKey: Double] {
        func medians(_ samples: [ReadCost.Sample]) -> [ReaderKey: Double] {
            Dictionary(grouping: samples, by: { ReaderKey(source: $0.source, reader: $0.reader) }).compactMapValues {
                Statistics.median($0.map(\.nanosecondsPerRead))
            }
        }
        let f = medians(faked), b = medians(baseline)
        return f.compactMapValues { $0 }.reduce(into: [:]) { out, kv in
            if let base = b[kv.key] { out[kv.key] = kv.value - base }
        }
    }

    package static func simTable(
        scenarios: [SkewScenario],
        clients: [ClientKind],
        sources: [ClockKind],
        verdicts: [String: [ClientKind: [ClockKind: ClockReport.Verdict]]]
    ) -> String {
        var out = ""
        var clean: [String] = []
        for scenario in scenarios {
            guard let byClient = verdicts[scenario.name] else { continue }
            let broke = byClient.values.contains { $0.values.contains(where: \.broke) }
            guard broke else {
                clean.append(scenario.name)
                continue
            }
            out += "scenario \(scenario.name): \(scenario.summary)\n"
            out += verdictTable(clients: clients, sources: sources, verdicts: byClient) + "\n"
        }
        if !clean.isEmpty { out += "scenarios where no client broke on any clock: \(clean.joined(separator: ", "))\n\n" }
        return out
    }

    package static func verdictTable(
        clients: [ClientKind],
        sources: [ClockKind],
        verdicts: [ClientKind: [ClockKind: ClockReport.Verdict]]
    ) -> String {
        var table = TextTable(columns: ["client"] + sources.map(\.name))
        for client in clients {
            guard let row = verdicts[client] else { continue }
            table.add([client.name] + sources.map { row[$0]?.text ?? "-" })
        }
        return table.render()
    }

    package static func costTable(_ costs: [ReadCost.Sample], overhead: [ReaderKey: Double]?) -> String {
        guard !costs.isEmpty else { return "" }
        var columns = ["source", "Swift API", "n", "Swift ns/read", "C clock_gettime ns/read"]
        if overhead != nil { columns += ["faketime +ns (Swift)", "faketime +ns (C)"] }
        var table = TextTable(columns: columns, rightAligned: Set(2..<columns.count))
        let grouped = Dictionary(grouping: costs, by: { ReaderKey(source: $0.source, reader: $0.reader) })
        func cell(_ key: ReaderKey) -> String {
            let v = (grouped[key] ?? []).map(\.nanosecondsPerRead)
            guard let m = Statistics.median(v), let lo = v.min(), let hi = v.max() else { return "-" }
            return "\(TextTable.number(m)) [\(TextTable.number(lo))–\(TextTable.number(hi))]"
        }
        for source in ClockKind.allCases where costs.contains(where: { $0.source == source }) {
            let swift = ReaderKey(source: source, reader: "read-swift-api"), c = ReaderKey(source: source, reader: "read-c-loop")
            var row = [source.name, ReadCost.apiName(source), "\((grouped[swift] ?? []).count)", cell(swift), cell(c)]
            if let overhead {
                row.append(overhead[swift].map(TextTable.number) ?? "-")
                row.append(overhead[c].map(TextTable.number) ?? "-")
            }
            table.add(row)
        }
        return "clock read cost, median [min–max] over n repetitions\n" + table.render()
    }
}
