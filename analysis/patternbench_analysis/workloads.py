"""The suite's workloads as the Swift registry (`WorkloadRegistry` in Measurement) defines them.

`workloads.json` beside this file is `bench-gate --list-workloads --json`, committed; the Swift test
`WorkloadRegistryTests` fails when it differs from the binary's output. Python code and tests take
their workload lists and factor types from here instead of keeping their own."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REGISTRY_PATH = Path(__file__).with_name("workloads.json")


@dataclass(frozen=True)
class Workload:
    name: str
    executable: str
    module: str
    numeric_factors: tuple[str, ...]
    text_factors: tuple[str, ...]
    open_to_variants: bool


@cache
def registry() -> dict[str, Workload]:
    """Every workload by name, in the registry's order."""
    entries = json.loads(REGISTRY_PATH.read_text(encoding="utf-8"))
    return {
        e["name"]: Workload(
            name=e["name"],
            executable=e["executable"],
            module=e["module"],
            numeric_factors=tuple(f["name"] for f in e["factors"] if f["type"] == "numeric"),
            text_factors=tuple(f["name"] for f in e["factors"] if f["type"] == "text"),
            open_to_variants=e["open_to_variants"],
        )
        for e in entries
    }
