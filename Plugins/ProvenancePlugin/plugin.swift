import Foundation
import PackagePlugin

/// Writes `Provenance.swift` into the target before every build: the commit and dirty state of the
/// source tree being compiled, so a binary knows what it was built from wherever it later runs.
///
/// Why a prebuild command: the manifest is evaluated once and cached, so a value computed in
/// Package.swift goes stale after the next commit; a prebuild command runs on every build. It only
/// rewrites the file when the text changes, so an unchanged tree recompiles nothing. `git` runs
/// only when the package folder is itself the top of a git work tree: a tarball without `.git`
/// unpacked inside another repository must say "unknown", not name the other repository's commit.
@main
struct ProvenancePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("generated")
        let root = context.package.directoryURL.path
        return [
            .prebuildCommand(
                displayName: "Recording the source commit of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.script, "provenance", root, output.appendingPathComponent("Provenance.swift").path],
                outputFilesDirectory: output
            ),
        ]
    }

    /// `sh -c SCRIPT provenance ROOT OUTPUT`. Never fails the build: without git, or outside a
    /// checkout, it records nil (unknown).
    static let script = #"""
    root=$1; out=$2
    commit=nil; dirty=nil
    if command -v git >/dev/null 2>&1; then
      top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || true)
      if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$root" && pwd -P)" ]; then
        sha=$(git -C "$root" rev-parse --verify -q HEAD 2>/dev/null || true)
        if [ -n "$sha" ]; then
          commit="\"$sha\""
          # Tracked files only: build products and other untracked files do not make a tree dirty.
          if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | head -n 1)" ]; then dirty=true; else dirty=false; fi
        fi
      fi
    fi
    mkdir -p "$(dirname "$out")"
    text="// Generated before every build by ProvenancePlugin; do not edit.
    package enum SourceProvenance {
        package static let gitCommit: String? = $commit
        package static let gitDirty: Bool? = $dirty
    }"
    if [ ! -f "$out" ] || [ "$(cat "$out")" != "$text" ]; then printf '%s\n' "$text" > "$out.tmp" && mv "$out.tmp" "$out"; fi
    """#
}
