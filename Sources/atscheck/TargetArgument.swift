import ArgumentParser
import TLSModel

/// The one parser of a target given on the command line (host, host:port, [v6]:port or an https:// URL), for every
/// command that takes one: ArgumentParser runs it while parsing (`transform:`), so a bad target is a usage error
/// (exit 64) that names the argument and says why: `The value 'ftp://x' is invalid for '<target>': unsupported scheme
/// 'ftp' (use https:// or host:port)`.
///
/// Not `ExpressibleByArgument`: its failable `init?(argument:)` cannot carry the reason a target is refused.
enum TargetArgument {
    /// Why a target was refused, as ArgumentParser prints it after the value and the argument's name.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses one target.
    /// - Parameter text: the argument as given.
    /// - Returns: the target.
    /// - Throws: ``Refusal`` with the reason.
    static func parse(_ text: String) throws -> Target {
        do { return try Target(parsing: text) } catch let error as TargetError {
            throw Refusal(description: error.reason)
        }
    }
}

/// A `scan` argument: a target, or `-` for targets read from standard input.
enum ScanArgument: Hashable {
    case standardInput
    case target(Target)

    /// Parses `-` or a target (``TargetArgument/parse(_:)``).
    /// - Throws: ``TargetArgument/Refusal`` for text that is neither.
    static func parse(_ text: String) throws -> ScanArgument {
        text == "-" ? .standardInput : .target(try TargetArgument.parse(text))
    }

    /// The target, nil for `-`.
    var target: Target? {
        if case .target(let target) = self { return target }
        return nil
    }
}
