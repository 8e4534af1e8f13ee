import Foundation
import MicroKernels

/// `instruction-counts`: runs the micro-benchmark kernels for `scripts/check-instructions.sh`,
/// which runs this program under `valgrind --tool=callgrind`.
///
///     instruction-counts [--filter REGEX] [--list]
///
/// Each kernel is prepared and run once unmeasured, then with N and with 2N operations inside
/// `pb_measured_region`, the only function callgrind collects in
/// (`--collect-atstart=no --toggle-collect=pb_measured_region`) and after which it writes one
/// profile each (`--dump-after=pb_measured_region`). So the profiles come in pairs, in the order of
/// the lines this program prints (`name<TAB>N`), and a pair's difference is N operations.
@main
enum InstructionCounter {
    static func main() {
        var arguments = CommandLine.arguments.dropFirst()
        var filter: Regex<AnyRegexOutput>?
        var list = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--list": list = true
            case "--filter":
                guard let pattern = arguments.popFirst() else { fail("--filter needs a regular expression") }
                do { filter = try Regex(pattern) } catch { fail("--filter: '\(pattern)' is not a regular expression") }
            case "-h", "--help":
                print("usage: instruction-counts [--filter REGEX] [--list]")
                return
            default: fail("unknown argument '\(argument)'")
            }
        }
        let kernels = InstructionKernels.all.filter { kernel in
            filter.map { (try? $0.wholeMatch(in: kernel.name)) != nil } ?? true
        }
        if kernels.isEmpty { fail("no kernel matches the filter") }
        for kernel in kernels {
            if list {
                print(kernel.name)
                continue
            }
            let loop = kernel.prepare()
            loop(kernel.operations)  // first touch: lazily grown storage reaches its steady size
            measuredRegion(loop, kernel.operations)
            measuredRegion(loop, 2 * kernel.operations)
            print("\(kernel.name)\t\(kernel.operations)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("instruction-counts: error: \(message)\n".utf8))
        exit(2)
    }
}

/// The measured region: callgrind counts the instructions executed in here and in what it calls,
/// and nothing else. A fixed symbol name, because valgrind does not demangle Swift's.
@_silgen_name("pb_measured_region")
@inline(never)
func measuredRegion(_ loop: (Int) -> Void, _ count: Int) {
    loop(count)
}
