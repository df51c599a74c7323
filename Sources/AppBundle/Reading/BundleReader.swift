import ATSPolicy
import Foundation
import TLSModel

/// Reads one `.app` out of a storage: its Info.plist first, then the files the report needs.
struct BundleReader {
    let storage: BundleStorage
    let appRoot: String
    let input: String
    let container: AppBundleContents.Container
    let limits: ArchiveLimits

    /// Text files read for endpoints, by lower-cased extension.
    static let textExtensions: Set<String> = ["plist", "json", "strings", "js", "jsbundle", "html", "htm"]
    /// Certificate files read for pins, by lower-cased extension.
    static let certificateExtensions: Set<String> = ["cer", "crt", "der"]

    func read() throws -> AppBundleContents {
        var files = BundleFiles(entries: storage.entries)
        let style: BundleLayout.Style =
            files.isFile(BundlePath.join(appRoot, "Contents/Info.plist")) ? .contents : .flat
        let layout = BundleLayout(appRoot: appRoot, style: style)
        let document = try infoPlist(layout, &files)
        let info = AppInfo(document: document, style: style)
        let lint = PlistLinter.lint(
            document, options: PlistLinter.Options(deploymentTarget: info.minimumOS.deploymentTarget))

        var skipped: [SkippedFile] = []
        let frameworks = try readFrameworks(layout, &files, &skipped)
        var executables: [String] = []
        if let name = info.executable,
            try load(layout.executable(named: name), limit: limits.maxExecutableBytes, &files, &skipped)
        {
            executables.append(files.resolve(layout.executable(named: name)) ?? layout.executable(named: name))
        }
        executables += frameworks.compactMap(\.executable).filter { files.data(at: $0) != nil }
        executables += try readPlugIns(layout, &files, &skipped)
        try checkExecutables(executables, files)
        for path in files.files(under: appRoot) where path != layout.infoPlist {
            let ext = BundlePath.pathExtension(path).lowercased()
            if Self.textExtensions.contains(ext) {
                _ = try load(path, limit: limits.maxTextBytes, &files, &skipped)
            } else if Self.certificateExtensions.contains(ext) {
                _ = try load(path, limit: limits.maxCertificateBytes, &files, &skipped)
            }
        }
        let libraries = LibraryDetector.detect(
            frameworks: frameworks, mainExecutable: executables.first.flatMap(files.data(at:)))
        let certificates = CertificateCollector.collect(
            files: files, layout: layout, frameworks: frameworks, input: input)
        var contents = AppBundleContents(
            path: input, container: container, layout: layout, infoPlist: document, info: info, lint: lint,
            frameworks: frameworks, libraries: libraries, certificates: certificates, skipped: skipped, findings: [],
            files: files, executables: executables)
        contents.findings = AppFindings.findings(for: contents)
        return contents
    }

    /// Refuses an executable with the magic of a thin 64-bit Mach-O whose load commands or sections lie outside
    /// it: no compiler writes one, and its offsets are what the harvester would scan.
    /// - Throws: ``AppBundleError/Code/corruptExecutable``.
    private func checkExecutables(_ executables: [String], _ files: BundleFiles) throws {
        for path in executables {
            guard let data = files.data(at: path),
                case .malformed(let why) = data.withUnsafeBytes({ MachOFile.parse($0) })
            else { continue }
            throw AppBundleError(.corruptExecutable, file: input, reason: "\(path): malformed Mach-O: \(why)")
        }
    }

    private func infoPlist(_ layout: BundleLayout, _ files: inout BundleFiles) throws -> PlistDocument {
        let path = layout.infoPlist
        let shown = AppBundleContents.displayPath(input: input, entry: path)
        guard let real = files.resolve(path), case .file(let size) = files.entries[real] else {
            throw AppBundleError(
                .infoPlist, file: input, reason: "the app has no Info.plist (\(path.isEmpty ? "Info.plist" : path))")
        }
        guard size <= Int64(InputLimits.plistBytes) else {
            throw AppBundleError(
                .infoPlist, file: input, reason: "\(path): \(InputLimits.tooLargeReason(limit: InputLimits.plistBytes))"
            )
        }
        let data = try storage.read(real)
        files.store(data, at: real)
        do {
            return try PlistDocument.parse(data: data, file: shown)
        } catch let error as PlistError {
            throw AppBundleError(
                .infoPlist, file: input, reason: "\(path)\(error.line.map { ":\($0)" } ?? ""): \(error.reason)")
        }
    }

    /// Loads a file unless it is too large (then it is listed in `skipped`).
    /// - Returns: Whether the file is loaded (false when absent or skipped).
    private func load(_ path: String, limit: Int64, _ files: inout BundleFiles, _ skipped: inout [SkippedFile]) throws
        -> Bool
    {
        guard let real = files.resolve(path), case .file(let size) = files.entries[real] else { return false }
        if files.contents[real] != nil { return true }
        guard size <= limit else {
            if !skipped.contains(where: { $0.path == real }) {
                skipped.append(SkippedFile(path: real, size: size, limit: limit))
            }
            return false
        }
        files.store(try storage.read(real), at: real)
        return true
    }

    private func nestedBundles(in folder: String, suffix: String, _ files: BundleFiles) -> [String] {
        files.children(of: folder).filter { $0.hasSuffix(suffix) }.map {
            BundlePath.join(files.resolve(folder) ?? folder, $0)
        }
    }

    private func readFrameworks(_ layout: BundleLayout, _ files: inout BundleFiles, _ skipped: inout [SkippedFile])
        throws -> [EmbeddedFramework]
    {
        var out: [EmbeddedFramework] = []
        for bundle in nestedBundles(in: layout.frameworks, suffix: ".framework", files) {
            let where_ = BundleLayout.nested(bundle, in: files)
            var plist: [String: Any] = [:]
            if try load(where_.infoPlist, limit: Int64(InputLimits.plistBytes), &files, &skipped),
                let data = files.data(at: where_.infoPlist),
                let document = try? PlistDocument.parse(data: data, file: where_.infoPlist)
            {
                plist = document.rootDictionary
            }
            let name = String(BundlePath.name(bundle).dropLast(".framework".count))
            let executableName = plist["CFBundleExecutable"] as? String ?? name
            var executable: String? = BundlePath.join(where_.executableFolder, executableName)
            if where_.resources != bundle, !files.isFile(executable!) {
                executable = BundlePath.join(bundle, executableName)
            }
            if let path = executable, try !load(path, limit: limits.maxExecutableBytes, &files, &skipped) {
                executable = nil
            }
            out.append(
                EmbeddedFramework(
                    path: bundle, name: name, bundleIdentifier: plist["CFBundleIdentifier"] as? String,
                    version: plist["CFBundleShortVersionString"] as? String,
                    executable: executable.flatMap { files.resolve($0) }, resources: where_.resources))
        }
        return out
    }

    private func readPlugIns(_ layout: BundleLayout, _ files: inout BundleFiles, _ skipped: inout [SkippedFile]) throws
        -> [String]
    {
        var out: [String] = []
        for bundle in nestedBundles(in: layout.plugIns, suffix: ".appex", files) {
            let where_ = BundleLayout.nested(bundle, in: files)
            guard try load(where_.infoPlist, limit: Int64(InputLimits.plistBytes), &files, &skipped),
                let data = files.data(at: where_.infoPlist),
                let document = try? PlistDocument.parse(data: data, file: where_.infoPlist),
                let name = document.rootDictionary["CFBundleExecutable"] as? String
            else { continue }
            let path = BundlePath.join(where_.executableFolder, name)
            if try load(path, limit: limits.maxExecutableBytes, &files, &skipped) {
                out.append(files.resolve(path) ?? path)
            }
        }
        return out
    }
}
