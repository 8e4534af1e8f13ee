#!/usr/bin/env python3
"""Finds skew files that make a bench-clock binary trap or hang, for the regression corpus.

Structure-aware like SkewFuzzTests: every field is valid on its own (sorted times, no overlapping
slews/drifts, nothing inside a suspend), the values biased to the extremes. Each file runs with a
timeout; a crash (signal or trap) or a timeout is saved as crash-N.csv / hang-N.csv in --out.

  find-failures.py --binary .build/debug/bench-clock --count 300 --out /tmp/found
"""
import argparse, os, random, subprocess

CENTURY = 100 * 365.25 * 86400.0


def ppm(rng, neg):
    m = rng.choice([1_000_000, 999_999.9999, 1_000_000 * (1 - rng.random() * 1e-9), 100_000 * rng.random(), 500 * rng.random()])
    return -m if neg else m


def span(rng):
    return rng.choice([CENTURY, CENTURY * rng.random(), 1e6 * rng.random() + 0.001, 100 * rng.random() + 0.001])


def skew_file(rng):
    lines = ["at_s,kind,value,duration_s"]
    t = slew_until = drift_until = suspend_until = 0.0
    for _ in range(rng.randint(1, 10)):
        t += CENTURY * rng.random() * 0.2 if rng.random() < 0.3 else 30 * rng.random()
        if t > CENTURY or t < suspend_until:
            continue
        kind = rng.randint(0, 3)
        neg = rng.random() < 0.5
        if kind == 0:
            s = rng.choice([CENTURY, CENTURY * rng.random() + 1e-3, 10 * rng.random() + 1e-3])
            lines.append(f"{t!r},step,{-s if neg else s!r},")
        elif kind == 1 and t >= slew_until:
            s = span(rng)
            lines.append(f"{t!r},slew,{ppm(rng, neg)!r},{s!r}")
            slew_until = t + s
        elif kind == 2 and t >= drift_until:
            s = 0 if rng.random() < 0.3 else span(rng)
            lines.append(f"{t!r},drift,{ppm(rng, neg)!r},{'' if s == 0 else repr(s)}")
            drift_until = float("inf") if s == 0 else t + s
        elif kind == 3 and t >= slew_until and t >= drift_until:
            s = span(rng)
            lines.append(f"{t!r},suspend,,{s!r}")
            suspend_until = t + s + 1e-3
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    found = {"crash": 0, "hang": 0}
    for i in range(a.count):
        text = skew_file(rng)
        path = os.path.join(a.out, "candidate.csv")
        with open(path, "w") as f:
            f.write(text)
        cmd = [a.binary, "--skew", path, "--no-read-cost", "--quiet", "--output", os.path.join(a.out, "run")]
        try:
            r = subprocess.run(cmd, capture_output=True, timeout=a.timeout)
            kind = "crash" if r.returncode < 0 or r.returncode >= 128 or b"Fatal error" in r.stderr else None
        except subprocess.TimeoutExpired:
            kind = "hang"
        if kind:
            found[kind] += 1
            with open(os.path.join(a.out, f"{kind}-{found[kind]}.csv"), "w") as f:
                f.write(f"# {kind} of {os.path.basename(a.binary)} (fuzz seed {a.seed}, case {i})\n" + text)
    print(f"{a.count} files: {found['crash']} crashes, {found['hang']} hangs")


if __name__ == "__main__":
    main()
