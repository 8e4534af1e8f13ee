import Foundation

/// Reads and validates a thresholds file, failing with the file and the field at fault.
public enum ThresholdFileReader {
    public static func read(path: String) throws(GateError) -> ThresholdFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GateError.input("\(path): cannot read the thresholds file")
        }
        let file: ThresholdFile
        do {
            file = try JSONDecoder().decode(ThresholdFile.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw GateError.input("\(path): \(Self.location(context.codingPath + [key])): missing")
        } catch let DecodingError.dataCorrupted(context) {
            throw GateError.input("\(path): \(Self.location(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw GateError.input("\(path): \(Self.location(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw GateError.input("\(path): \(Self.location(context.codingPath)): missing value")
        } catch {
            throw GateError.input("\(path): not valid JSON: \(error)")
        }
        guard file.schemaVersion == ThresholdFile.currentSchemaVersion else {
            throw GateError.input("\(path): schema_version: expected \(ThresholdFile.currentSchemaVersion), found \(file.schemaVersion)")
        }
        var ids = Set<String>()
        for (i, t) in file.thresholds.enumerated() {
            let at = "\(path): thresholds[\(i)] (\(t.id))"
            guard ids.insert(t.id).inserted else { throw GateError.input("\(at): id: duplicate") }
            guard (t.bound == nil) != (t.compare == nil) else {
                throw GateError.input("\(at): exactly one of bound and compare is required")
            }
            if let b = t.bound, !b.value.isFinite { throw GateError.input("\(at): bound.value: must be finite") }
            if let c = t.compare {
                guard c.variant != nil || c.metric != nil else {
                    throw GateError.input("\(at): compare: names neither a variant nor a metric")
                }
                if let f = c.factor, !(f.isFinite && f > 0) { throw GateError.input("\(at): compare.factor: must be positive") }
            }
            if let mode = t.modeOverride, mode != "sim", mode != "live" {
                throw GateError.input("\(at): mode: must be sim or live, got '\(mode)'")
            }
            guard !t.reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw GateError.input("\(at): reason: must say why")
            }
            if let optional = t.optional, optional.trimmingCharacters(in: .whitespaces).isEmpty {
                throw GateError.input("\(at): optional: must say why the threshold may select nothing")
            }
        }
        for (i, m) in file.hardwareMetrics.enumerated() {
            let at = "\(path): hardware_metrics[\(i)] (\(m.workload)/\(m.metric))"
            guard m.tolerance.isFinite, m.tolerance > 0, m.tolerance < 10 else {
                throw GateError.input("\(at): tolerance: must be in (0, 10)")
            }
            guard m.alpha > 0, m.alpha < 0.5 else { throw GateError.input("\(at): alpha: must be in (0, 0.5)") }
            // A host-health metric says how busy the machine was; gating it would call the machine's
            // load the code's regression.
            guard !VerdictRule.hostConditions.contains(m.metric) else {
                throw GateError.input("\(at): metric: describes the host, not the code (a condition, never better or worse)")
            }
            if let optional = m.optional, optional.trimmingCharacters(in: .whitespaces).isEmpty {
                throw GateError.input("\(at): optional: must say why the metric may select nothing")
            }
        }
        return file
    }

    static func location(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

/// A gate failure with its exit code: 2 for bad input or usage, 3 for a missing or incompatible
/// baseline. (1, a regression, is a verdict, not an error.)
public struct GateError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var exitCode: Int32
    public var description: String { message }

    public static func input(_ message: String) -> GateError { GateError(message: message, exitCode: 2) }
    public static func baseline(_ message: String) -> GateError { GateError(message: message, exitCode: 3) }
}
