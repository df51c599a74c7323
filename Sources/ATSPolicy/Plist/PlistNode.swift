import Foundation
import TLSModel

/// A plist value classified by its property-list type.
///
/// Foundation hands back `Any`; on Linux a `<true/>` is a Swift `Bool` while an `<integer>` is an
/// `NSNumber` that also casts to `Bool`, so `value as? Bool` cannot tell them apart. Apple's ATS
/// parser can (§3.4: the number 2 is "present but not YES"), so the linter must too.
package enum PlistNode {
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case array([Any])
    case dictionary([String: Any])
    /// Something Foundation returned that is none of the above (should not happen).
    case other(Any)

    /// Classifies a value returned by `PropertyListSerialization`.
    package init(_ value: Any) {
        if let b = value as? Bool, type(of: value) == Bool.self {
            self = .boolean(b)
        } else if let n = value as? NSNumber {
            switch String(cString: n.objCType) {
            case "c", "B": self = .boolean(n.boolValue)  // Darwin's CFBoolean
            case "f", "d": self = .real(n.doubleValue)
            default: self = .integer(n.intValue)
            }
        } else if let i = value as? Int {
            self = .integer(i)
        } else if let d = value as? Double {
            self = .real(d)
        } else if let s = value as? String {
            self = .string(s)
        } else if let d = value as? Data {
            self = .data(d)
        } else if let d = value as? Date {
            self = .date(d)
        } else if let a = value as? [Any] {
            self = .array(a)
        } else if let d = PlistNode.dictionary(value) {
            self = .dictionary(d)
        } else {
            self = .other(value)
        }
    }

    /// A dictionary with string keys, from either `[String: Any]` or `[AnyHashable: Any]`
    /// (the OpenStep parser returns the latter). Non-string keys are dropped.
    static func dictionary(_ value: Any) -> [String: Any]? { PropertyListValues.stringKeyedDictionary(value) }

    /// The plist element name of the value, as a person would write it: `<true/>`, `<string>`, ….
    package var typeName: String {
        switch self {
        case .boolean(let b): return b ? "<true/>" : "<false/>"
        case .integer: return "<integer>"
        case .real: return "<real>"
        case .string: return "<string>"
        case .data: return "<data>"
        case .date: return "<date>"
        case .array: return "<array>"
        case .dictionary: return "<dict>"
        case .other: return "an unknown type"
        }
    }

    /// A short rendering of the value for messages, e.g. `<string>YES</string>`.
    package var shortDescription: String {
        switch self {
        case .boolean: return typeName
        case .integer(let i): return "<integer>\(i)</integer>"
        case .real(let d): return "<real>\(d)</real>"
        case .string(let s): return "<string>\(s)</string>"
        default: return typeName
        }
    }
}
