extension RuleID {
    /// Ids of the offline findings of `atscheck app`: the pinning libraries a bundle links, which of its
    /// certificate files they would load, and the OS range its verdicts cover (docs/pinning-rules.md §1.1, §3, §4).
    /// Pin-material problems shared with `atscheck pins` keep their `pins.material.*` ids.
    public enum App: RuleNamespace {
        public static let family = RuleFamily.app
        /// A pinning library is linked, with its version and where it loads pins from (note).
        public static let libraryLinked: RuleID = "app.library.linked"
        /// Certificate files are bundled, but no library that loads them by default was found (note).
        public static let pinsNoLibrary: RuleID = "app.pins.no-library"
        /// Certificate files that no default lookup reads (wrong folder or extension) (warning).
        public static let pinsNotLoaded: RuleID = "app.pins.not-loaded"
        /// A certificate file that is neither DER nor PEM (error).
        public static let pinsUnreadable: RuleID = "app.pins.unreadable"
        /// `TSKConfiguration` is in the Info.plist but TrustKit is not linked (warning).
        public static let trustKitNotLinked: RuleID = "app.trustkit.not-linked"
        /// The Info.plist has no `NSAppTransportSecurity` dictionary: ATS defaults apply everywhere (note).
        public static let noATSDictionary: RuleID = "app.ats.absent"
        /// The minimum OS is missing, unreadable or older than ATS (warning or note).
        public static let minimumOS: RuleID = "app.minimum-os"
        /// A file the harvester or pin reader skipped because it is larger than its limit (warning).
        public static let fileSkipped: RuleID = "app.file.skipped"
    }
}

extension RuleRegistry {
    /// What `atscheck app` reads in a bundle (`app.*`).
    public static let app = RuleRegistry(
        "app",
        entries: [
            RuleDescriptor(
                RuleID.App.libraryLinked, .app, .note, title: "A pinning library is linked into the app.",
                help: """
                    The bundle links AFNetworking, Alamofire or TrustKit, as a framework under `Frameworks/` (its \
                    version from the framework's Info.plist) or statically (its class names are in the executable; \
                    version unknown). The message says where that library loads pins from by default: AFNetworking \
                    4.x and Alamofire 5 read certificate files at the top level of the main bundle, AFNetworking \
                    2.x/3.x linked as a framework reads its own framework bundle (docs/pinning-rules.md §1.1), \
                    TrustKit reads `TSKConfiguration`. Which pinning mode the code selects is not in the bundle: \
                    `atscheck app` reports every mode the bundle makes plausible.
                    """),
            RuleDescriptor(
                RuleID.App.pinsNoLibrary, .app, .note,
                title: "Certificate files are bundled, but no library that loads them by default is linked.",
                help: """
                    No AFNetworking or Alamofire was found, as a framework or by class name in the executable, so \
                    nothing loads the bundle's `.cer/.crt/.der` files by default. Custom code may still load them \
                    (`SecCertificateCreateWithData`, URLSession delegates); if not, they are dead weight.
                    """),
            RuleDescriptor(
                RuleID.App.pinsNotLoaded, .app, .warning,
                title: "Certificate files that no default lookup of the linked libraries reads.",
                help: """
                    AFNetworking reads `*.cer` (lower case) at the top level of a bundle; Alamofire 5 reads \
                    `.cer/.CER/.crt/.CRT/.der/.DER` at the top level of the main bundle (docs/pinning-rules.md §1.1, \
                    §4). Files in subfolders, or with another extension, are never pinned unless code loads them \
                    explicitly. Move them to the top level with an extension the library reads, or load them in code.
                    """),
            RuleDescriptor(
                RuleID.App.pinsUnreadable, .app, .error,
                title: "A bundled certificate file is neither a DER nor a PEM certificate.",
                help: """
                    The bytes do not parse as an X.509 certificate. AFNetworking's Certificate mode crashes on a \
                    blob that is not DER (as for PEM, docs/pinning-rules.md §1.1); its PublicKey mode and Alamofire \
                    drop it silently. Replace it with the DER encoding of the certificate to pin.
                    """),
            RuleDescriptor(
                RuleID.App.trustKitNotLinked, .app, .warning,
                title: "The Info.plist configures TrustKit, but TrustKit is not linked.",
                help: """
                    TrustKit initialises itself from the Info.plist's `TSKConfiguration` when it is linked; no \
                    TrustKit.framework and no TrustKit class names were found in the executable, so nothing reads \
                    the configuration and nothing is pinned by it. Link TrustKit, or remove the stale configuration.
                    """, appleKey: "TSKConfiguration"),
            RuleDescriptor(
                RuleID.App.noATSDictionary, .app, .note,
                title: "The Info.plist has no NSAppTransportSecurity dictionary.",
                help: """
                    Every connection of the app is under the ATS defaults: HTTPS only, TLS 1.2 or later, forward \
                    secrecy, Apple's certificate rules. That is the strictest setting; the live check shows whether \
                    every harvested endpoint meets it.
                    """, appleKey: "NSAppTransportSecurity"),
            RuleDescriptor(
                RuleID.App.minimumOS, .app, .warning,
                title: "The app's minimum OS is missing, unreadable or older than ATS.",
                help: """
                    `MinimumOSVersion` (iOS) or `LSMinimumSystemVersion` (macOS) sets the OS eras the verdicts cover, \
                    from the minimum to the newest release atscheck knows. When it is missing or not a version, only \
                    the newest rules are used (a warning); a minimum before iOS 9 / macOS 10.11 (no ATS there) \
                    starts the range at iOS 9 (a note).
                    """, appleKey: "MinimumOSVersion"),
            RuleDescriptor(
                RuleID.App.fileSkipped, .app, .warning, title: "A file of the bundle was too large to read.",
                help: """
                    A file the harvester or the pin reader would read is larger than its limit (see docs/app.md), so \
                    its endpoints or certificates are not in the report. The rest of the bundle is read as usual.
                    """),
        ])
}
