import Foundation
import Pinning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the pinning libraries an app links, by each registered library's ``PinLibrarySignature``: frameworks by
/// folder name, static copies by marker strings in the main executable (only when no framework of that name is
/// embedded).
enum LibraryDetector {
    static func detect(frameworks: [EmbeddedFramework], mainExecutable: Data?) -> [LinkedLibrary] {
        var found: [LinkedLibrary] = []
        for library in PinningLibraries.all {
            guard let signature = library.bundleSignature else { continue }
            let name = library.id
            if let framework = frameworks.first(where: {
                $0.name.caseInsensitiveCompare(signature.framework) == .orderedSame
            }) {
                found.append(
                    LinkedLibrary(name: name, version: framework.version, linkage: .framework(path: framework.path)))
            } else if let binary = mainExecutable,
                let marker = signature.staticMarkers.first(where: { contains(binary, $0) })
            {
                found.append(LinkedLibrary(name: name, version: nil, linkage: .staticallyLinked(marker: marker)))
            }
        }
        return found
    }

    /// Whether the bytes contain the ASCII string (memchr for the first byte, then memcmp: executables are
    /// tens of megabytes, and Glibc's memmem is not visible to Swift without _GNU_SOURCE).
    static func contains(_ data: Data, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return true }
        return data.withUnsafeBytes { (haystack: UnsafeRawBufferPointer) -> Bool in
            pattern.withUnsafeBytes { (wanted: UnsafeRawBufferPointer) -> Bool in
                guard let base = haystack.baseAddress, let key = wanted.baseAddress else { return false }
                var offset = 0
                while offset + wanted.count <= haystack.count {
                    let span = haystack.count - offset - wanted.count + 1
                    guard let hit = memchr(base + offset, Int32(first), span) else { return false }
                    let at = UnsafeRawPointer(hit) - base
                    if memcmp(UnsafeRawPointer(hit), key, wanted.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }
}

/// Collects every certificate file in the app and the default lookups that read it (docs/pinning-rules.md §1.1, §4).
enum CertificateCollector {
    static func collect(files: BundleFiles, layout: BundleLayout, frameworks: [EmbeddedFramework], input: String)
        -> [BundledCertificate]
    {
        let mainResources = files.resolve(layout.resources) ?? layout.resources
        // Each registered lookup with the folder it reads: the main bundle's, or its library's framework's.
        let lookups = PinningLibraries.all.flatMap { library in
            library.bundleLookups.compactMap { lookup -> (BundleLookup, String)? in
                switch lookup.folder {
                case .mainBundle: return (lookup, mainResources)
                case .ownFramework:
                    let name = library.bundleSignature?.framework
                    guard let framework = frameworks.first(where: { $0.name == name }) else { return nil }
                    return (lookup, files.resolve(framework.resources) ?? framework.resources)
                }
            }
        }
        var out: [BundledCertificate] = []
        for path in files.files(under: layout.appRoot) {
            let ext = BundlePath.pathExtension(path)
            guard BundleReader.certificateExtensions.contains(ext.lowercased()), let bytes = files.contents[path] else {
                continue
            }
            let folder = path.split(separator: "/").dropLast().joined(separator: "/")
            // NSBundle's pathsForResourcesOfType: matches the extension as written: `.CER` is not read by `cer`.
            let reading = lookups.filter { $0.1 == folder && $0.0.extensions.contains(ext) }.map(\.0)
            out.append(
                BundledCertificate(
                    path: path, displayPath: AppBundleContents.displayPath(input: input, entry: path), bytes: bytes,
                    encoding: BundledCertificate.encoding(of: bytes), lookups: reading))
        }
        return out
    }
}
