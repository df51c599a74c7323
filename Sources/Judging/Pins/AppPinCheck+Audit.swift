import Foundation
import TLSModel

extension AppPinCheck {
    /// An audit pin check (an Info.plist's `NSPinnedDomains`, an endpoint-list entry) as `app` reports it: same
    /// endpoint, library, files and result, no mode; its note the pinned-domain entry, else the entry's pins.
    /// - Parameter check: The audit's check.
    package init(_ check: AuditPinCheck) {
        self.init(
            origin: check.origin == .pinnedDomains ? .pinnedDomains : .endpointList, endpoint: check.endpoint,
            library: check.library, mode: nil, assumed: false, pinFiles: check.pinFiles,
            note: check.domains.first.map { "NSPinnedDomains entry '\($0)'" } ?? check.pins, result: check.result)
    }
}
