import Foundation
import XCTest

@testable import TraceImport

/// A trace written as our encoder (`Timelines.PerfettoTrace`) and Perfetto's SDK write it — packet
/// defaults, a sequence-scoped incremental clock started by a clock snapshot, events on the
/// default track without `track_uuid`, interned names, the state cleared per item — reads as the
/// same signposts as the same events with absolute timestamps, explicit tracks and inline names.
/// The controls: each piece of incremental state that is missing (no snapshot, a reset before the
/// packet that leans on it) is a one-line error naming the file, and the same trace with it reads.
final class PerfettoIncrementalStateTests: XCTestCase {
    /// Protobuf bytes, written field by field.
    struct Proto {
        var bytes: [UInt8] = []

        mutating func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                bytes.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        mutating func int(_ field: Int, _ value: UInt64) {
            varint(UInt64(field) << 3)
            varint(value)
        }

        mutating func string(_ field: Int, _ text: String) { data(field, Array(text.utf8)) }

        mutating func data(_ field: Int, _ body: [UInt8]) {
            varint(UInt64(field) << 3 | 2)
            varint(UInt64(body.count))
            bytes += body
        }

        mutating func message(_ field: Int, _ build: (inout Proto) -> Void) {
            var p = Proto()
            build(&p)
            data(field, p.bytes)
        }
    }

    /// One signpost to encode: its time (ns of BOOTTIME), thread, type (1 begin, 2 end,
    /// 3 instant), name and rows.
    struct Event {
        var time: UInt64
        var thread: Int
        var type: UInt64
        var name: String
        var rows: UInt64?
    }

    struct Thread {
        var uuid: UInt64
        var tid: UInt64
    }

    /// One process: its pid, name, threads (the first is the default track) and events in the
    /// order they are written (an event earlier than the one before goes on BOOTTIME, as our
    /// encoder writes it).
    struct Process {
        var uuid: UInt64
        var pid: UInt64
        var name: String
        var threads: [Thread]
        var events: [Event]
    }

    static let processes = [
        Process(
            uuid: 1,
            pid: 10,
            name: "Signal",
            threads: [Thread(uuid: 2, tid: 10), Thread(uuid: 3, tid: 11)],
            events: [
                Event(time: 5_000_000, thread: 0, type: 1, name: "launch", rows: nil),
                Event(time: 5_000_000, thread: 0, type: 3, name: "commit", rows: 4),
                Event(time: 7_250_000, thread: 1, type: 3, name: "commit", rows: nil),
                Event(time: 7_250_000, thread: 1, type: 1, name: "load", rows: nil),
                Event(time: 6_000_000, thread: 0, type: 3, name: "late", rows: 2),
                Event(time: 9_000_000, thread: 1, type: 2, name: "", rows: nil),
                Event(time: 1_009_000_000, thread: 0, type: 2, name: "", rows: nil),
            ]
        ),
        Process(
            uuid: 4,
            pid: 20,
            name: "SpringBoard",
            threads: [Thread(uuid: 5, tid: 20)],
            events: [
                Event(time: 2_000_000, thread: 0, type: 3, name: "commit", rows: 7),
                Event(time: 3_000_000, thread: 0, type: 3, name: "commit", rows: nil),
            ]
        ),
    ]

    /// How the timestamps and tracks are written.
    struct Encoding {
        /// Deltas on sequence clock 64 (`unit` ns per unit, snapshot at BOOTTIME `boot` = `at`),
        /// its id in the packet defaults; otherwise absolute BOOTTIME timestamps.
        var incremental = true
        var boot: UInt64 = 0
        var at: UInt64 = 0
        var unit: UInt64 = 1
        /// Whether the packet defaults name a default track (events on it then leave it out).
        var defaultTrack = true
        /// Whether names and the `rows` annotation's name are interned.
        var interned = true
        /// Whether the first packet of a sequence has its clock snapshot.
        var snapshot = true
        /// Whether an event's delta names clock 64 itself (`timestamp_clock_id`), not through the
        /// defaults.
        var explicitClock = false
    }

    static func encode(_ processes: [Process], _ e: Encoding) -> [UInt8] {
        var trace = Proto()
        func packet(_ build: (inout Proto) -> Void) {
            trace.message(1) { p in
                p.int(10, 1)  // trusted_packet_sequence_id
                build(&p)
            }
        }
        for process in processes {
            let names = Array(Set(process.events.map(\.name).filter { !$0.isEmpty })).sorted()
            packet { p in
                p.int(13, 1)  // SEQ_INCREMENTAL_STATE_CLEARED
                if e.incremental || e.defaultTrack {
                    p.message(59) { d in
                        if e.incremental { d.int(58, 64) }
                        if e.defaultTrack { d.message(11) { t in t.int(11, process.threads[0].uuid) } }
                    }
                }
                if e.incremental, e.snapshot {
                    p.message(6) { s in
                        s.message(1) { c in
                            c.int(1, 6)
                            c.int(2, e.boot)
                        }
                        s.message(1) { c in
                            c.int(1, 64)
                            c.int(2, e.at)
                            c.int(3, 1)
                            if e.unit != 1 { c.int(4, e.unit) }
                        }
                    }
                }
            }
            packet { p in
                p.message(60) { d in
                    d.int(1, process.uuid)
                    d.message(3) { pr in
                        pr.int(1, process.pid)
                        pr.string(6, process.name)
                    }
                }
            }
            for thread in process.threads {
                packet { p in
                    p.message(60) { d in
                        d.int(1, thread.uuid)
                        d.int(5, process.uuid)
                        d.message(4) { t in
                            t.int(1, process.pid)
                            t.int(2, thread.tid)
                        }
                    }
                }
            }
            if e.interned {
                packet { p in
                    p.int(13, 2)  // SEQ_NEEDS_INCREMENTAL_STATE
                    p.message(12) { d in
                        for (k, name) in names.enumerated() {
                            d.message(2) { n in
                                n.int(1, UInt64(k + 1))
                                n.string(2, name)
                            }
                        }
                        d.message(3) { n in
                            n.int(1, 1)
                            n.string(2, "rows")
                        }
                    }
                }
            }
            var last = e.at * e.unit  // the incremental clock's reading, in ns past the snapshot's
            for event in process.events {
                packet { p in
                    let sinceSnapshot = event.time - e.boot + e.at * e.unit
                    if e.incremental, sinceSnapshot >= last {
                        p.int(8, (sinceSnapshot - last) / e.unit)
                        if e.explicitClock { p.int(58, 64) }
                        last = sinceSnapshot
                    } else {
                        p.int(8, event.time)
                        if e.incremental { p.int(58, 6) }
                    }
                    p.int(13, 2)
                    p.message(11) { t in
                        t.int(9, event.type)
                        let track = process.threads[event.thread].uuid
                        if !e.defaultTrack || event.thread != 0 { t.int(11, track) }
                        if !event.name.isEmpty {
                            if e.interned { t.int(10, UInt64(names.firstIndex(of: event.name)! + 1)) } else { t.string(23, event.name) }
                        }
                        if let rows = event.rows {
                            t.message(4) { a in
                                if e.interned { a.int(1, 1) } else { a.string(10, "rows") }
                                a.int(4, rows)
                            }
                        }
                    }
                }
            }
        }
        return trace.bytes
    }

    static func file(_ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trace-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("incremental.pftrace")
        try Data(bytes).write(to: url)
        return url.path
    }

    func signposts(_ bytes: [UInt8]) throws -> [SignpostEvent] {
        var reader = try SignpostReader(path: try Self.file(bytes), format: .perfetto)
        defer { reader.close() }
        var out: [SignpostEvent] = []
        while let e = try reader.next() { out.append(e) }
        return out
    }

    func assertFails(_ bytes: [UInt8], _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try Self.file(bytes)
        var reader = try SignpostReader(path: path, format: .perfetto)
        defer { reader.close() }
        XCTAssertThrowsError(try { while try reader.next() != nil {} }(), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertTrue(error is TraceImportError, text, file: file, line: line)
            XCTAssertTrue(text.hasPrefix(path + ": "), text, file: file, line: line)
            XCTAssertTrue(text.contains(expected), text, file: file, line: line)
            XCTAssertFalse(text.contains("\n"), "one line: \(text)", file: file, line: line)
        }
    }

    static let absolute = Encoding(incremental: false, defaultTrack: false, interned: false)

    func testIncrementalTimestampsAndTheDefaultTrackReadAsAbsoluteOnes() throws {
        let expected = try signposts(Self.encode(Self.processes, Self.absolute))
        XCTAssertEqual(expected.count, 9)
        XCTAssertEqual(expected.map(\.time), Self.processes.flatMap { $0.events.map { Int64($0.time) } })
        XCTAssertEqual(
            expected.first,
            SignpostEvent(phase: .begin, name: "launch", process: "Signal", mainThread: true, time: 5_000_000, rows: nil, key: "2")
        )
        XCTAssertEqual(expected.filter { $0.mainThread }.count, 4 + 2)
        // As our encoder writes it: the snapshot starts clock 64 at 0 = BOOTTIME 0.
        XCTAssertEqual(try signposts(Self.encode(Self.processes, Encoding())), expected)
        // A snapshot that relates the clock elsewhere, in microseconds (deltas × 1 000).
        let micro = Encoding(boot: 1_000_000, at: 250, unit: 1_000)
        XCTAssertEqual(try signposts(Self.encode(Self.processes, micro)), expected)
        // Each feature alone.
        XCTAssertEqual(try signposts(Self.encode(Self.processes, Encoding(defaultTrack: false, interned: false))), expected)
        XCTAssertEqual(try signposts(Self.encode(Self.processes, Encoding(incremental: false, interned: false))), expected)
        XCTAssertEqual(try signposts(Self.encode(Self.processes, Encoding(incremental: false, defaultTrack: false))), expected)
    }

    func testTheComparisonSeesAWrongTime() throws {
        // Control for the equality above: a snapshot read with the wrong offset gives other times.
        var shifted = Self.processes
        shifted[1].events[1].time += 1
        XCTAssertNotEqual(try signposts(Self.encode(shifted, Encoding())), try signposts(Self.encode(Self.processes, Self.absolute)))
    }

    func testADeltaBeforeAnyClockSnapshotFails() throws {
        try assertFails(
            Self.encode(Self.processes, Encoding(snapshot: false)),
            "is on clock 64, which no clock snapshot with BOOTTIME has defined on sequence 1"
        )
    }

    /// The first process's packets with a reset that restates nothing (`incremental_state_cleared`)
    /// between its interned names and its first event.
    func afterReset(_ encoding: Encoding) -> [UInt8] {
        var bytes = Self.encode([Self.processes[0]], encoding)
        var reset = Proto()
        reset.message(1) { p in
            p.int(10, 1)
            p.int(41, 1)  // incremental_state_cleared
        }
        // After the descriptors and interned names (packets 1 to 5), before the first event.
        let offset = Self.packetOffsets(bytes)[5]
        bytes.insert(contentsOf: reset.bytes, at: offset)
        return bytes
    }

    static func packetOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var i = 0
        while i < bytes.count {
            offsets.append(i)
            i += 1
            var length = 0
            var shift = 0
            while bytes[i] >= 0x80 {
                length |= Int(bytes[i] & 0x7F) << shift
                shift += 7
                i += 1
            }
            length |= Int(bytes[i]) << shift
            i += 1 + length
        }
        return offsets
    }

    func testStateLeanedOnAfterAResetFails() throws {
        // Controls: the same packets without the reset read.
        let clock = Encoding(defaultTrack: false, interned: false, explicitClock: true)
        let track = Encoding(incremental: false, interned: false)
        let name = Encoding(incremental: false, defaultTrack: false)
        for encoding in [clock, track, name] {
            XCTAssertEqual(
                try signposts(Self.encode([Self.processes[0]], encoding)),
                try signposts(Self.encode([Self.processes[0]], Self.absolute))
            )
        }
        // A delta that leans on the defaults' clock reads after a reset as a BOOTTIME time, as the
        // trace processor reads it: only a packet that names its clock can be caught.
        try assertFails(afterReset(clock), "which no clock snapshot with BOOTTIME has defined on sequence 1 since its last reset")
        try assertFails(afterReset(track), "a track event without track_uuid, and sequence 1 has no default track since its last reset")
        try assertFails(afterReset(name), "event name iid 3 is not interned on sequence 1 since its last reset")
    }

    /// The older SDKs' form: track events with no `track_uuid` on a sequence that never named a
    /// default track read as on no known process, as before the reader knew defaults (and unlike
    /// `testStateLeanedOnAfterAResetFails`, where a reset cleared a default the events relied on).
    func testEventsWithoutATrackOnASequenceThatNeverNamedADefaultRead() throws {
        var trace = Proto()
        for (time, name) in [(UInt64(5), "commit"), (9, "commit")] {
            trace.message(1) { p in
                p.int(8, time)
                p.int(10, 1)
                p.message(11) { e in
                    e.int(9, 3)  // instant
                    e.string(23, name)
                }
            }
        }
        let events = try signposts(trace.bytes)
        XCTAssertEqual(events.map(\.time), [5, 9])
        XCTAssertEqual(events.map(\.process), ["", ""])
    }

    /// Our encoder's own output: `encoder.perfetto-trace` is `bench-throttle --scenario steady
    /// --duration 1 --seeds 2 --variant immediate --device fast --perfetto FILE` (two items, so the
    /// state is cleared and restated once); `encoder-absolute.perfetto-trace` is the same packets
    /// resolved by the Python test decoder (`Fixtures/encoder-absolute.py`).
    func testOurEncodersTraceReadsAsItsAbsoluteForm() throws {
        func read(_ name: String) throws -> [SignpostEvent] {
            var reader = try SignpostReader(path: FixtureFiles.path(name), format: .perfetto)
            defer { reader.close() }
            var out: [SignpostEvent] = []
            while let e = try reader.next() { out.append(e) }
            return out
        }
        let incremental = try read("encoder.perfetto-trace")
        let absolute = try read("encoder-absolute.perfetto-trace")
        XCTAssertEqual(incremental, absolute)
        XCTAssertEqual(Set(incremental.map(\.process)).count, 2, "both items")
        XCTAssertEqual(incremental.filter { $0.name == "commit" && $0.phase == .instant }.count, 16)
        XCTAssertTrue(incremental.contains { $0.time > 900_000_000 }, "late events have their absolute time")
        XCTAssertTrue(incremental.contains { $0.key == "2" && $0.phase == .end }, "slice ends on the default track")
        let survey = try CommitSurvey(
            path: FixtureFiles.path("encoder.perfetto-trace"),
            format: .perfetto,
            signpost: "commit",
            process: nil
        )
        XCTAssertEqual(survey.commits, 8)
    }
}
