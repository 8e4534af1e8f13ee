#!/usr/bin/env python3
"""Every public symbol a user's package touches has documentation, by DocC's own account.

Reads the `documentation-coverage.json` that `swift package generate-documentation
--experimental-documentation-coverage` writes into each module's archive and fails, one line per
symbol, when one of the types below or any of its members has no abstract (a summary line). The
types are the framework's surface as docs/your-own-variant.md teaches it: the six roles, their
variant types and the values they take, the suite, and what a variant's code reads (the time
types, the origin, observations). Members the compiler synthesizes or a standard protocol
requires (`==`, `hash(into:)`, `init(from:)`, `rawValue`, …) are not counted: their meaning is the
protocol's.

Usage: scripts/check-api-docs.py ARCHIVES_DIR   (a folder with one <Module>.doccarchive per module)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

USER_FACING = {
    "BenchSuite": ["Suite", "SuiteMain"],
    "Throttling": ["UpdateThrottler", "ThrottleContext", "ThrottleDecision", "ThrottlerVariant", "ThrottleParameters"],
    "Locking": ["LockStrategy", "AtomicWrapper", "LockVariant"],
    "Caching": ["CountBoundedCache", "CacheVariant", "CachedValue", "LifecycleRule", "LiveThreading"],
    "Readiness": ["ReadinessPolicy", "ReadinessAPI", "ReadinessVariant", "ReadinessBlock", "LaunchSession"],
    "FanOut": ["FanOutShape", "FanOutVariant"],
    "Lifecycle": ["LifecyclePolicy", "LifecycleVariant"],
    "Measurement": ["VariantOrigin", "VariantInfo", "VariantRegistry", "NamedVariant", "VariantParameter", "BenchFailure"],
    "Records": ["Observation", "PackageProvenance"],
    "Simulation": ["SimDuration", "SimInstant"],
}

# What a standard protocol defines (Equatable, Hashable, Codable, RawRepresentable, CustomStringConvertible, …).
PROTOCOL_MEMBERS = re.compile(
    r"^(==|!=|<|<=|>|>=|\+|-|\*|/|\.\.\.|\.\.<|~=)\(|^hash\(into:\)$|^hashValue$|^init\(from:\)$|^encode\(to:\)$|"
    r"^rawValue$|^init\(rawValue:\)$|^description$|^debugDescription$|^allCases$|^AllCases$|^RawValue$|^CodingKeys$|"
    r"^(Equatable|Hashable|Comparable|Encodable|Decodable|CustomStringConvertible|CaseIterable|RawRepresentable|"
    r"AdditiveArithmetic|Strideable|Sendable|Error|LocalizedError|CustomDebugStringConvertible)-Implementations$|"
    r"^(zero|magnitude|advanced\(by:\)|distance\(to:\)|errorDescription|localizedDescription)$|"
    # Operators, as DocC spells them in paths (`+(_:_:)` is `_(_:_:)`, `...(_:)`).
    r"^[_.]+\(|"
    # `NamedVariant`'s requirements where a variant inherits the default: documented on the protocol.
    r"^parametersIdentifyIt$"
)


def undocumented(archives: Path) -> tuple[list[str], int]:
    problems = []
    checked = 0
    for module, types in USER_FACING.items():
        coverage = archives / f"{module}.doccarchive" / "documentation-coverage.json"
        if not coverage.is_file():
            coverage = archives / module / "documentation-coverage.json"
        if not coverage.is_file():
            problems.append(f"{module}: no {coverage} (was the archive built with --experimental-documentation-coverage?)")
            continue
        entries = json.loads(coverage.read_text(encoding="utf-8"))
        prefix = f"doc://{module}/documentation/{module}/".lower()
        seen = set()
        for e in entries:
            path = e.get("referencePath", "")
            if not e.get("kind", {}).get("isSymbol") or not path.lower().startswith(prefix):
                continue
            parts = path[len(prefix):].split("/")
            top = re.sub(r"-.*$", "", parts[0])
            if top.lower() not in {t.lower() for t in types}:
                continue
            seen.add(top.lower())
            last = re.sub(r"-(swift\.\w+|\w{4,6})$", "", parts[-1]) if len(parts) > 1 else ""
            if len(parts) > 1 and (PROTOCOL_MEMBERS.search(last) or any(PROTOCOL_MEMBERS.search(re.sub(r"-.*$", "", p)) for p in parts[1:-1])):
                continue
            checked += 1
            if not e.get("hasAbstract"):
                name = ".".join(re.sub(r"-(swift\.\w+|\w{4,6})$", "", p) for p in parts)
                problems.append(f"{module}: {name} has no documentation")
        for t in types:
            if t.lower() not in seen:
                problems.append(f"{module}: {t} is not in the archive (renamed, or no longer public?)")
    return problems, checked


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n")[-1], file=sys.stderr)
        return 2
    problems, checked = undocumented(Path(sys.argv[1]))
    for p in problems:
        print(f"check-api-docs: {p}", file=sys.stderr)
    if problems:
        print(f"check-api-docs: {len(problems)} of the user-facing symbols lack documentation", file=sys.stderr)
        return 1
    print(f"check-api-docs: {checked} user-facing public symbols in {len(USER_FACING)} modules, every one documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
