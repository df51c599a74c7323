/// ANSI styling for terminal output: used only when stdout is a TTY and `NO_COLOR` is unset.
package struct TextStyle: Sendable {
    package var enabled: Bool
    package init(enabled: Bool) { self.enabled = enabled }

    package static let plain = TextStyle(enabled: false)

    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func red(_ text: String) -> String { wrap(text, "31") }
    package func green(_ text: String) -> String { wrap(text, "32") }
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
}
