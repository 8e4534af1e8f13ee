/// An event name with a number in it (`tap flow 12`, `movies hedge flow 12 succeeded`), made once
/// and shared by every event that carries it with its own number (`TraceEvent.slice(_:_:on:start:duration:)`).
///
/// A traced default bench-group run names about 380,000 slices by their flow's number; one string
/// each was built, looked up by its characters in the encoder's plan, written and freed, the
/// largest single part of what tracing added to the run. Held as parts, an event makes no string:
/// the encoder writes the parts, and only `TraceEvent.name` (`--events`, tests) spells one out.
public struct NumberedName: Sendable, Hashable {
    /// The name without its number: `head` then `tail`, interned (what an event holds), so that
    /// a copy of a numbered name is two numbers and no reference.
    let textName: TraceName
    /// Where the number goes in `text` (UTF-8 offset): `head`'s length.
    public let numberAt: Int

    /// The name without its number: `head` then `tail`.
    public var text: String { textName.string }

    /// The name `head`, the number's decimal digits, then `tail`.
    public init(_ head: String, _ tail: String = "") {
        textName = TraceName(head + tail)
        numberAt = head.utf8.count
    }

    /// The name with `number` in it.
    public func callAsFunction(_ number: Int) -> String {
        Self.spell(text, numberAt: numberAt, number: number)
    }

    /// `text` with `number`'s decimal digits at UTF-8 offset `numberAt`.
    static func spell(_ text: String, numberAt: Int, number: Int) -> String {
        let utf8 = Array(text.utf8)
        return String(decoding: utf8[..<numberAt], as: UTF8.self) + String(number) + String(decoding: utf8[numberAt...], as: UTF8.self)
    }

    /// How many decimal digits a non-negative `number` has.
    @inline(__always) static func digits(_ number: UInt64) -> Int {
        var digits = 1
        var rest = number
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}
