import Measurement
import Records

extension LifecycleWorkload: RegistryWorkload {
    /// What `--list` prints, with every variant of `variants` labelled with its origin.
    package static func catalogue(variants: VariantRegistry<LifecycleVariant>) -> WorkloadCatalogue {
        WorkloadCatalogue(
            sections: [
                .init(
                    "scenarios (--scenario)",
                    LifecycleScenario.allCases.map { .init($0.rawValue, $0.summary, isDefault: $0 != .trace) }
                ),
                .init("variants (--variant)", variants.catalogueEntries),
                .init("transitions (--trace lines: '<time_ms> <transition>')", Transition.allCases.map { .init($0.rawValue, $0.summary) }),
                .init(
                    "durability (live: --mode live kills a real child process inside its saves)",
                    LifecyclePolicy.Durability.allCases.map { .init($0.rawValue, $0.liveSummary) }
                ),
            ],
            footer: [
                "sim default: everyday, memory-pressure, scene-thrash, slow-device x every variant x 3 seeds x 200 sessions (--quick: 40)",
                "live (--mode live): the sim matrix plus kill-during-save x every durability (real child processes, SIGSTOP/SIGKILL)",
            ]
        )
    }

    package var parameters: [String: JSONValue] {
        let r = configuration.rules
        let p = configuration.profile
        var out = matrixParameters(mode: configuration.mode, seeds: seeds, variants: variants.map(\.name), quick: selection.quick)
        out.merge([
            "scenarios": .array(scenarios.map { .string($0.rawValue) }),
            "sessions": .number(Double(sessionCount)),
            "launch_watchdog_s": .number(r.launchWatchdog.seconds),
            "resume_watchdog_s": .number(r.resumeWatchdog.seconds),
            "background_transition_s": .number(r.backgroundTransition.seconds),
            "will_terminate_s": .number(r.willTerminate.seconds),
            "bg_task_s": .number(r.backgroundTask.seconds),
            "refresh_task_s": .number(r.refreshTask.seconds),
            "expiration_grace_s": .number(r.expirationGrace.seconds),
            "bg_limit_mb": .number(r.backgroundMemoryLimitMB),
            "full_save_ms": .number(p.fullSave.milliseconds),
            "commit_ms": .number(p.commit.milliseconds),
            "base_memory_mb": .number(p.baseMemoryMB),
            "cache_cap_mb": .number(p.cacheCapMB),
            "sync_failure": .number(p.syncFailure),
        ]) { $1 }
        if let path = configuration.tracePath { out["trace"] = .string(path) }
        if configuration.mode == .live {
            if configuration.mode == .live { out["kills"] = .number(Double(killCount)) }
        }
        return out
    }
}

extension LifecyclePolicy.Durability {
    var liveSummary: String {
        switch self {
        case .inPlace: "overwrite the state file in place (open O_TRUNC, write, close)"
        case .rename: "write a temporary file, rename it over the state file (no fsync)"
        case .renameFsync: "as rename, with fsync of the file before and of the directory after"
        case .sqliteWAL: "one SQLite transaction per save, journal_mode=WAL, synchronous=NORMAL"
        }
    }
}
