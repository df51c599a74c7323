import TLSModel

extension ScanTextRenderer {
    /// One line on whether the server takes a ClientHello spanning two TCP segments, as iOS 26's does
    /// (``ServerProfile/helloSizeTolerance``, issue 36); empty when it was not tested.
    /// - Parameter p: the endpoint's profile.
    /// - Returns: the line, wrapped to the width, ending in a newline; or "".
    func helloSizeLine(_ p: ServerProfile) -> String {
        guard let tolerance = p.helloSizeTolerance else { return "" }
        let label = "  ClientHello in two TCP segments (iOS 26): "
        let text: String
        switch tolerance.tolerant {
        case true?:
            text = label + style.green("answered") + (tolerance.detail.map { "; \(ControlEscaping.escape($0))" } ?? "")
        case false?:
            text =
                label + style.red("fails, iOS 26 cannot connect") + ": "
                + ControlEscaping.escape(
                    tolerance.detail ?? "split \(tolerance.split.rawValue), "
                        + "one segment \(tolerance.single.rawValue)")
        case nil:
            text = label + style.yellow(ControlEscaping.escape(tolerance.detail ?? "not decided"))
        }
        return TextLayout.wrap(text, width: width, hang: 4) + "\n"
    }
}
