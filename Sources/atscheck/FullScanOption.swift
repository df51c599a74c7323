import ATSCheckKit
import ArgumentParser
import TLSModel

/// `--full`, for the commands that by default probe only what the ATS verdict reads (`audit`, `app`, `pins check`):
/// with ``ScanOptions``' `--ats-only` (which every scanning command has), one place decides the probe scope.
struct FullScanOption: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Enumerate every suite of every version (the default is --ats-only: at most 6 handshakes per endpoint, which also read the served chain)."
    )
    var full = false

    /// Exit 64 when `--full` and `--ats-only` are both given (an option group cannot see another's flags, so the
    /// command calls this from its `validate()`).
    /// - Parameter scan: the command's scan options.
    /// - Throws: `ValidationError` naming both flags.
    func validate(with scan: ScanOptions) throws {
        if full && scan.atsOnly { throw ValidationError("--full and --ats-only cannot be used together") }
    }

    /// The probe scope: every suite with `--full`, else only what the ATS verdict reads.
    var scope: ProbeScope { full ? .full : .atsOnly }
}
