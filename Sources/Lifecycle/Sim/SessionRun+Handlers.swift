import Measurement
import Simulation
import Timelines

extension SessionRun {
    mutating func handle(_ event: Event, at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        switch event {
        case .script(let transition): apply(transition, at: t, device: &device, tally: &tally)
        case .ready:
            isReady = true
            device.pendingMigration = nil
            tally.coldTTI.append(Double(t) / 1e6)
            // In the foreground the app syncs with no time limit: the backlog is done.
            device.syncBacklog = 0
            instant("interactive", at: t)
            foregroundSince = t
            // A launch into the foreground: scenePhase reaches active once the first screen is up.
            if phase == .launching { enter(.active, at: t) }
            // Deferred initialisation runs on main once the app is ready (after the first screen).
            if deferredInit > 0 {
                let start = max(t, mainFree)
                slice("deferred init", on: "main", from: start, to: start + deferredInit)
                mainFree = start + deferredInit
            }
            // Signal clears its launch counter 3 s after the app is ready (AppLifecycleManager.setAppIsReady).
            if policy.crashLoopThreshold != nil {
                queue.schedule(.clearLaunchCounter, at: SimInstant(nanoseconds: t + 3_000_000_000))
            }
        case .clearLaunchCounter: device.launchesAttempted = 0
        case .commitDone:
            tally.acknowledged += 1
            device.acknowledged += 1
            device.durable += 1
        case .saveDone(let id, let version):
            guard let i = saves.firstIndex(where: { $0.id == id }), saves[i].version == version, saves[i].frozenRemaining == nil else {
                return
            }
            device.durable = max(device.durable, saves[i].content)
            saves.remove(at: i)
            if backgroundTask != nil, !saves.contains(where: { !$0.onMain }) {
                backgroundTask = nil
                queue.schedule(.trySuspend, at: SimInstant(nanoseconds: t))
            }
        case .backgroundTaskExpired(let id):
            guard let task = backgroundTask, task.id == id else { return }
            tally.backgroundTaskExpirations += 1
            instant("bg-task expired", at: t)
            backgroundTask = nil
            if policy.backgroundSave == .backgroundTaskForceSave {
                // The expiration handler runs on main: a synchronous forceSave.
                let h = max(t, mainFree)
                if let save = startSave(at: h, onMain: true, device: device, tally: &tally) {
                    mainFree = save.end
                    if save.end - t > rules.expirationGrace.nanoseconds {
                        queue.schedule(.death(.expiration), at: SimInstant(nanoseconds: t + rules.expirationGrace.nanoseconds), priority: 0)
                        return
                    }
                }
            }
            queue.schedule(.trySuspend, at: SimInstant(nanoseconds: max(t, mainFree)))
        case .trySuspend:
            guard phase == .background, mainFree <= t, backgroundTask == nil, refreshUntil <= t else { return }
            // Work in flight off main freezes with the process.
            for i in saves.indices where !saves[i].onMain && saves[i].frozenRemaining == nil && saves[i].end > t {
                saves[i].frozenRemaining = saves[i].end - t
            }
            enter(.suspended, at: t)
        case .death(let reason): die(reason, at: t, device: &device, tally: &tally)
        }
    }

    mutating func apply(_ transition: Transition, at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        switch transition {
        case .launch: launch(at: t, device: &device, tally: &tally)
        case .edit:
            guard isReady, phase == .active || phase == .inactive else { return }
            if policy.persistence == .eachChange {
                writerFree = max(t, writerFree) + profile.commit.nanoseconds
                queue.schedule(.commitDone, at: SimInstant(nanoseconds: writerFree))
            } else {
                tally.acknowledged += 1
                device.acknowledged += 1
            }
        case .active:
            switch phase {
            case .background, .suspended:
                resume(at: t, device: &device, tally: &tally)
                enter(.active, at: t)
            case .active:
                // A repeated didBecomeActive: without a debounce the observers run again.
                if !policy.debouncesScenePhase { mainFree = max(t, mainFree) + observers(profile.resumeObservers) }
            case .inactive, .launching: if phase == .inactive || isReady { enter(.active, at: t) }
            }
        case .inactive:
            if phase == .active { enter(.inactive, at: t) }
        case .background: background(at: t, device: &device, tally: &tally)
        case .foreground:
            guard phase == .background || phase == .suspended else { return }
            resume(at: t, device: &device, tally: &tally)
        case .refresh: refresh(at: t, device: &device, tally: &tally)
        case .pressure:
            guard phase == .background || phase == .suspended else { return }
            if footprintMB > rules.backgroundMemoryLimitMB { die(.jetsam, at: t, device: &device, tally: &tally) }
        case .kill: die(.silent, at: t, device: &device, tally: &tally)
        case .terminate: terminate(at: t, device: &device, tally: &tally)
        }
    }

    mutating func launch(at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        tally.sessions += 1
        if violation == nil, let threshold = policy.crashLoopThreshold, threshold < 1 {
            violation = LifecycleContract.crashLoopThresholdPositive.violated(
                at: "launch at \(LifecycleContract.at(t)): crashLoopThreshold \(threshold)"
            )
        }
        if let threshold = policy.crashLoopThreshold, device.launchesAttempted >= threshold {
            // checkIfAllowedToLaunch: .lastAppLaunchCrashed; the user may choose to launch anyway.
            tally.launchFailureScreens += 1
            instant("launch-failure screen", at: t)
        }
        device.launchesAttempted += 1
        LifecycleSimulation.verifyAtLaunch(&device, &tally)
        if device.pendingMigration == nil { device.pendingMigration = script.migration }
        let items = script.draws.initItems
        let critical = items.prefix(profile.criticalItems).reduce(0, +)
        let deferrable = items.dropFirst(profile.criticalItems).reduce(0, +)
        var firstFrame = t + profile.processStart.nanoseconds + critical + (policy.defersNonCriticalInit ? 0 : deferrable)
        var interactive = firstFrame
        if let m = device.pendingMigration?.nanoseconds {
            if policy.migratesOffMain {
                interactive += m
            } else {
                firstFrame += m
                interactive += m
            }
        }
        if firstFrame - t > rules.launchWatchdog.nanoseconds {
            slice("launch (blocked)", on: "main", from: t, to: t + rules.launchWatchdog.nanoseconds)
            queue.schedule(.death(.watchdog), at: SimInstant(nanoseconds: t + rules.launchWatchdog.nanoseconds), priority: 0)
            mainFree = firstFrame
            return
        }
        slice("launch", on: "main", from: t, to: firstFrame)
        mainFree = firstFrame
        deferredInit = policy.defersNonCriticalInit ? deferrable : 0
        queue.schedule(.ready, at: SimInstant(nanoseconds: interactive), priority: 0)
        memory(at: t)
    }

    mutating func growCaches(until t: Int64) {
        guard let since = foregroundSince else { return }
        cacheMB = min(profile.cacheCapMB, cacheMB + profile.cacheGrowthMBPerSecond * Double(max(0, t - since)) / 1e9)
        foregroundSince = nil
    }

    mutating func background(at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        let repeated = phase == .background || phase == .suspended
        if repeated && policy.debouncesScenePhase { return }
        growCaches(until: t)
        let h = max(t, mainFree)
        let handlersEnd = h + observers(profile.backgroundObservers)
        var blockedUntil = handlersEnd
        switch policy.backgroundSave {
        case .none: break
        case .syncOnMain:
            if let save = startSave(at: handlersEnd, onMain: true, device: device, tally: &tally) { blockedUntil = save.end }
        case .backgroundTask, .backgroundTaskForceSave:
            if backgroundTask == nil {
                backgroundTask = (nextTaskID, handlersEnd + rules.backgroundTask.nanoseconds)
                queue.schedule(
                    .backgroundTaskExpired(id: nextTaskID),
                    at: SimInstant(nanoseconds: handlersEnd + rules.backgroundTask.nanoseconds)
                )
                nextTaskID += 1
            }
            if startSave(at: handlersEnd, onMain: false, device: device, tally: &tally) == nil, !saves.contains(where: { !$0.onMain }) {
                backgroundTask = nil
            }
        }
        if !repeated {
            let share = policy.cachePurgedInBackground
            if violation == nil, !(share.isFinite && (0...1).contains(share)) {
                violation = LifecycleContract.sharesInRange.violated(
                    at: "didEnterBackground at \(LifecycleContract.at(t)): cachePurgedInBackground \(share)"
                )
            }
            let purged = cacheMB * min(1, max(0, share.isFinite ? share : 0))
            cacheMB -= purged
            purgedMB += purged
            tally.backgroundPeakMB = max(tally.backgroundPeakMB, footprintMB)
            if footprintMB > rules.backgroundMemoryLimitMB { tally.backgroundOverLimit += 1 }
            memory(at: t)
            enter(.background, at: t)
        }
        slice("didEnterBackground", on: "main", from: h, to: blockedUntil)
        if blockedUntil - t > rules.backgroundTransition.nanoseconds {
            queue.schedule(.death(.watchdog), at: SimInstant(nanoseconds: t + rules.backgroundTransition.nanoseconds), priority: 0)
        }
        mainFree = blockedUntil
        queue.schedule(.trySuspend, at: SimInstant(nanoseconds: blockedUntil))
    }

    mutating func resume(at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        for i in saves.indices {
            if let remaining = saves[i].frozenRemaining {
                saves[i].frozenRemaining = nil
                saves[i].end = t + remaining
                saves[i].version += 1
                queue.schedule(.saveDone(id: saves[i].id, version: saves[i].version), at: SimInstant(nanoseconds: saves[i].end))
            }
        }
        let h = max(t, mainFree)
        let rebuild = Int64((purgedMB * Double(profile.rebuildPerMB.nanoseconds)).rounded())
        let end = h + observers(profile.resumeObservers) + rebuild
        cacheMB += purgedMB
        purgedMB = 0
        enter(.inactive, at: t)
        slice("resume", on: "main", from: h, to: end)
        if end - t > rules.resumeWatchdog.nanoseconds {
            queue.schedule(.death(.watchdog), at: SimInstant(nanoseconds: t + rules.resumeWatchdog.nanoseconds), priority: 0)
            mainFree = end
            return
        }
        mainFree = end
        tally.resumeTTI.append(Double(end - t) / 1e6)
        device.syncBacklog = 0  // in the foreground the app syncs with no time limit
        foregroundSince = end
        memory(at: end)
    }

    mutating func refresh(at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        guard phase == .background || phase == .suspended, refreshUntil <= t else { return }
        if violation == nil, policy.refresh.retries < 0 {
            violation = LifecycleContract.retriesNotNegative.violated(
                at: "refresh window at \(LifecycleContract.at(t)): retries \(policy.refresh.retries)"
            )
        }
        if violation == nil, let own = policy.refresh.ownTimeoutSeconds, !(own.isFinite && own > 0) {
            violation = LifecycleContract.ownTimeoutPositive.violated(
                at: "refresh window at \(LifecycleContract.at(t)): ownTimeoutSeconds \(own)"
            )
        }
        let k = refreshDraw
        refreshDraw += 1
        let outcome = SyncAttempts.run(
            policy: policy.refresh,
            backlog: &device.syncBacklog,
            newWork: script.draws.syncWork(k),
            draws: script.draws,
            window: k,
            budget: rules.refreshTask.nanoseconds,
            backoff: profile.retryBackoff.nanoseconds,
            cap: profile.syncCap.nanoseconds
        )
        tally.refreshWindows += 1
        if outcome.succeeded { tally.refreshSuccesses += 1 }
        if outcome.expired {
            tally.refreshExpirations += 1
            instant("refresh expired", at: t + outcome.elapsed)
        }
        slice(outcome.succeeded ? "refresh ok" : "refresh failed", on: "refresh", from: t, to: t + outcome.elapsed)
        refreshUntil = t + outcome.elapsed
        if phase == .suspended { enter(.background, at: t) }
        queue.schedule(.trySuspend, at: SimInstant(nanoseconds: refreshUntil))
    }

    mutating func terminate(at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        guard phase != .suspended else { return die(.silent, at: t, device: &device, tally: &tally) }
        // willTerminate: Signal clears its launch counter there; the naive app saves.
        if policy.crashLoopThreshold != nil { device.launchesAttempted = 0 }
        var end = max(t, mainFree)
        if policy.savesAtWillTerminate, policy.persistence == .atTransitions,
            let save = startSave(at: end, onMain: true, device: device, tally: &tally)
        {
            end = save.end
        }
        let deadline = t + rules.willTerminate.nanoseconds
        queue.schedule(.death(end > deadline ? .watchdog : .terminated), at: SimInstant(nanoseconds: min(end, deadline)), priority: 2)
    }

    mutating func die(_ reason: Death, at t: Int64, device: inout LifecycleSimulation.Device, tally: inout LifecycleTally) {
        guard alive else { return }
        alive = false
        killPoint = .init(reason: reason.rawValue, suspended: phase == .suspended)
        for s in saves where s.frozenRemaining != nil || (s.start <= t && t < s.end) {
            if !s.durability.isAtomicUnderKill {
                device.corrupt = true
                instant("torn write", at: t)
            }
        }
        switch reason {
        case .watchdog: tally.watchdogKills += 1
        case .expiration: tally.expirationKills += 1
        case .jetsam: tally.jetsamKills += 1
        case .silent: tally.silentKills += 1
        case .terminated: break
        }
        if reason == .watchdog || reason == .expiration || reason == .jetsam { tally.crashedSessions += 1 }
        instant(reason == .terminated ? "terminated" : TraceName(reason.rawValue), at: t)
        enter(phase, at: t)
        lastTime = offset + t
    }
}
