import Foundation

/// Every run document in a results folder (one per workload), validated.
public struct ResultsSet: Sendable {
    public var path: String
    public var documents: [RunDocument]

    public var records: [ResultRecord] { documents.flatMap(\.records) }
    public var workloads: Set<String> { Set(documents.map(\.workload)) }

    /// Loads `<folder>/*.json` that are run documents. `asBaseline` picks the exit code of errors:
    /// a broken baseline is 3, a broken results folder 2.
    public static func load(path: String, asBaseline: Bool = false) throws(GateError) -> ResultsSet {
        func fail(_ message: String) -> GateError { asBaseline ? .baseline(message) : .input(message) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw fail("\(path): no such results folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var documents: [RunDocument] = []
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") && !name.hasPrefix("gate") {
            let file = (path as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file) else { throw fail("\(file): cannot be read") }
            // Check the version before decoding the rest: another version may have another shape.
            struct Versioned: Decodable { var schema_version: Int? }
            guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
                throw fail("\(file): not valid JSON")
            }
            guard let version = versioned.schema_version else { continue }  // not a run document
            guard version == RunDocument.currentSchemaVersion else {
                throw GateError.baseline("\(file): schema_version: \(version) is not the supported \(RunDocument.currentSchemaVersion)")
            }
            do { documents.append(try RunDocument.decode(data)) } catch {
                throw fail("\(file): not a valid run document: \(error)")
            }
        }
        guard !documents.isEmpty else { throw fail("\(path): no run documents (<workload>.json) in the folder") }
        return ResultsSet(path: path, documents: documents)
    }
}
