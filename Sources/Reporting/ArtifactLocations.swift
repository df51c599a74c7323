import Foundation

/// Where the CI formats place their results: the repository the run is in, so a file's URI is repository-relative,
/// and the artifact a result without an input file is placed at.
///
/// GitHub code scanning rejects a SARIF file whose results lack a physical location, and matches an alert to a file
/// by its repository-relative path. So every result has one: the input file and line where there is one (the plist,
/// the endpoint list, the targets file, the chain file, the app); otherwise — targets given on the command line —
/// the *invocation artifact*: under GitHub Actions the workflow file that ran atscheck (from `GITHUB_WORKFLOW_REF`),
/// else `atscheck` (a name, not a file: GitLab and GitHub list such results without a source view).
package struct ArtifactRoot: Sendable, Equatable {
    /// The directory relative URIs are relative to (SARIF `%SRCROOT%`): the Git work tree the run is in, else the
    /// working directory. Absolute, without a trailing slash.
    package var sourceRoot: String
    /// The directory relative input paths were given from. Absolute.
    package var workingDirectory: String
    /// The artifact of results without an input file, relative to ``sourceRoot``.
    package var invocationArtifact: String

    /// The artifact of results without an input file when no workflow file is known.
    package static let defaultInvocationArtifact = "atscheck"
    /// The base id of repository-relative URIs (the name GitHub's documentation and most tools use).
    package static let sourceRootID = "%SRCROOT%"

    /// - Parameters:
    ///   - sourceRoot: the directory relative URIs are relative to.
    ///   - workingDirectory: the directory relative input paths were given from.
    ///   - invocationArtifact: the artifact of results without an input file.
    package init(
        sourceRoot: String, workingDirectory: String,
        invocationArtifact: String = ArtifactRoot.defaultInvocationArtifact
    ) {
        self.sourceRoot = Self.standardized(sourceRoot)
        self.workingDirectory = Self.standardized(workingDirectory)
        self.invocationArtifact = invocationArtifact
    }

    /// The root of this process: the Git work tree above the working directory (a `.git` directory or file), and the
    /// workflow file named by `GITHUB_WORKFLOW_REF` (`owner/repo/.github/workflows/ci.yml@refs/heads/main`).
    /// - Parameter environment: the process environment.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> ArtifactRoot {
        let cwd = FileManager.default.currentDirectoryPath
        var root = standardized(cwd)
        var probe = root
        while true {
            if FileManager.default.fileExists(atPath: probe + "/.git") {
                root = probe
                break
            }
            guard let slash = probe.lastIndex(of: "/"), probe != "/" else { break }
            probe = slash == probe.startIndex ? "/" : String(probe[..<slash])
        }
        return ArtifactRoot(
            sourceRoot: root, workingDirectory: cwd,
            invocationArtifact: environment["GITHUB_WORKFLOW_REF"].flatMap(workflowFile) ?? defaultInvocationArtifact)
    }

    /// The workflow file of a `GITHUB_WORKFLOW_REF` (`owner/repo/.github/workflows/ci.yml@refs/heads/main` →
    /// `.github/workflows/ci.yml`), or nil when it is not of that shape.
    static func workflowFile(_ ref: String) -> String? {
        let path = ref.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ref
        guard let range = path.range(of: "/.github/workflows/") else { return nil }
        let file = ".github/workflows/" + path[range.upperBound...]
        return file.hasSuffix(".yml") || file.hasSuffix(".yaml") ? file : nil
    }

    /// Where a path given on the command line (or in a report) is, as a URI: relative to ``sourceRoot`` with
    /// ``sourceRootID`` when it is inside it, else an absolute `file:` URI.
    /// - Parameter path: a path as the user gave it.
    /// - Returns: the URI and its base id (nil for an absolute URI).
    package func location(of path: String) -> (uri: String, baseID: String?) {
        let absolute = Self.standardized(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
        if absolute.hasPrefix(sourceRoot == "/" ? "/" : sourceRoot + "/") {
            let relative = String(absolute.dropFirst(sourceRoot == "/" ? 1 : sourceRoot.count + 1))
            return (Self.encoded(relative), Self.sourceRootID)
        }
        return ("file://" + Self.encoded(absolute), nil)
    }

    /// The URI of ``sourceRoot`` (with a trailing slash, as SARIF requires of a base).
    package var sourceRootURI: String { "file://" + Self.encoded(sourceRoot == "/" ? "/" : sourceRoot + "/") }

    /// A path percent-encoded as a URI path.
    static func encoded(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    /// `.` and `..` resolved, repeated and trailing slashes removed (lexically: symbolic links are left alone).
    static func standardized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
