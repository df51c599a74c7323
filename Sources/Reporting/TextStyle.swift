/// ANSI styling for terminal output: used only when stdout is a TTY and `NO_COLOR` is unset.
public struct TextStyle: Sendable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }

    public static let plain = TextStyle(enabled: false)

    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
}
