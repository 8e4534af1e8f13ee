import Records

/// Deterministic values are compared only between documents of one random stream version.
///
/// A virtual-time value is bit-identical per seed *for one version of the random streams*
/// (`RunMetadata.randomStreamVersion`); a new version (version 2's ziggurat inter-arrival times)
/// moves every value it feeds without anything regressing. Comparing across versions would report
/// each of them as changed, a verdict with nothing behind it, so the gate refuses instead and says
/// how to get a comparable reference.
enum StreamVersionCheck {
    /// Throws (exit 2, one line) when a workload's results and its reference (the baseline) come
    /// from different stream versions. Workloads on one side only are not compared, so not checked.
    static func check(current: [RunDocument], reference: [RunDocument], referencePath: String) throws(GateError) {
        var referenceVersions: [String: Int] = [:]
        for d in reference { referenceVersions[d.workload] = d.metadata.streamVersion }
        for d in current {
            guard let theirs = referenceVersions[d.workload], theirs != d.metadata.streamVersion else { continue }
            throw GateError.input(
                "\(d.workload): random stream version \(d.metadata.streamVersion) in the results but \(theirs) in \(referencePath): deterministic values of two stream versions are not comparable (re-record the reference with --update-baseline, or compare with one of version \(d.metadata.streamVersion))"
            )
        }
    }
}
