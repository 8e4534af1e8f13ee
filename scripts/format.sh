#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the repository's .swift-format
# (swift-nio's configuration, with 140-character lines).
#
#   scripts/format.sh           # format in place
#   scripts/format.sh --check   # change nothing; exit 1 and list the files that are not formatted
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift-format >/dev/null || { echo "format.sh: swift-format not found (it ships with Swift 6 toolchains)" >&2; exit 69; }
# Tracked files and untracked ones git does not ignore: a new file is checked before it is added.
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- 'Package.swift' 'Sources/*.swift' 'Tests/*.swift' \
  'Benchmarks/*.swift' | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
if [ "${1:-}" = "--check" ]; then
  # Copies of the files, formatted in place by one parallel swift-format, compared with the files:
  # one swift-format process per file took 36-58 s of CI (twice: its format step and the
  # scaffold's), this about 4 s.
  copies=$(mktemp -d)
  trap 'rm -rf "$copies"' EXIT
  printf '%s\0' "${files[@]}" | tar --null -T - -cf - | tar -xf - -C "$copies"
  (cd "$copies" && swift-format format --configuration "$OLDPWD/.swift-format" --in-place --parallel "${files[@]}")
  bad=()
  for f in "${files[@]}"; do
    cmp -s "$f" "$copies/$f" || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format.sh: ${#bad[@]} file(s) not formatted; run scripts/format.sh:" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
else
  swift-format format --configuration .swift-format --in-place --parallel "${files[@]}"
fi
