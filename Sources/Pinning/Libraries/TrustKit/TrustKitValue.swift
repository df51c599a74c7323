import Foundation

/// A configuration value as TrustKit's Objective-C code sees it: which messages it answers. TrustKit never checks
/// a value's class; it sends `-count`, `-boolValue` or a string method and Objective-C raises
/// NSInvalidArgumentException when the object does not implement it.
enum TrustKitValue {
    case dictionary([String: Any])
    case array([Any])
    case string(String)
    case boolean(Bool)
    case number(Double)
    case date
    case data
    case null
    case other(String)

    /// Classifies a value decoded from a plist (`PropertyListSerialization`), JSON or YAML.
    init(_ value: Any) {
        if let dictionary = PinConfigurationParser.dictionary(value) {
            self = .dictionary(dictionary)
        } else if let array = value as? [Any] {
            self = .array(array)
        } else if let string = value as? String {
            self = .string(string)
        } else if let bool = value as? Bool, type(of: value) == Bool.self {
            self = .boolean(bool)
        } else if let number = value as? NSNumber {
            self = .number(number.doubleValue)
        } else if let int = value as? Int {
            self = .number(Double(int))
        } else if let double = value as? Double {
            self = .number(double)
        } else if value is Date {
            self = .date
        } else if value is Data {
            self = .data
        } else if value is NSNull {
            self = .null
        } else {
            self = .other("\(type(of: value))")
        }
    }

    /// An article and a noun, for messages: `a string`, `an array`.
    var name: String {
        switch self {
        case .dictionary: return "a dictionary"
        case .array: return "an array"
        case .string: return "a string"
        case .boolean: return "a boolean"
        case .number: return "a number"
        case .date: return "a date"
        case .data: return "data"
        case .null: return "null"
        case .other(let type): return "a \(type)"
        }
    }

    /// The Foundation class such a value has at run time, for the exception text.
    var className: String {
        switch self {
        case .dictionary: return "__NSDictionaryI"
        case .array: return "__NSArrayI"
        case .string: return "__NSCFString"
        case .boolean: return "__NSCFBoolean"
        case .number: return "__NSCFNumber"
        case .date: return "__NSDate"
        case .data: return "NSConcreteData"
        case .null: return "NSNull"
        case .other(let type): return type
        }
    }

    /// `-boolValue`: an NSNumber is YES when non-zero, an NSString by its text; nil for the classes that do not
    /// implement it (arrays, dictionaries, dates, data, NSNull).
    var boolValue: Bool? {
        switch self {
        case .boolean(let value): return value
        case .number(let value): return value != 0
        case .string(let text): return Self.stringBoolValue(text)
        default: return nil
        }
    }

    /// Whether it answers `-count` (collections).
    var respondsToCount: Bool {
        switch self {
        case .dictionary, .array: return true
        default: return false
        }
    }

    /// An empty dictionary or array: TrustKit's `count` is 0.
    var isEmptyCollection: Bool {
        switch self {
        case .dictionary(let dictionary): return dictionary.isEmpty
        case .array(let array): return array.isEmpty
        default: return false
        }
    }

    /// What `for … in` yields: an array's elements, a dictionary's keys (sorted; Foundation's order is the hash
    /// table's); nil for objects that do not support fast enumeration.
    var enumerated: [Any]? {
        switch self {
        case .array(let array): return array
        case .dictionary(let dictionary): return dictionary.keys.sorted()
        default: return nil
        }
    }

    /// `-[NSString boolValue]`: after leading whitespace, YES on `Y`, `y`, `T`, `t` or a digit 1–9 (after an
    /// optional sign and zeros); NO otherwise, so `"NO"`, `"false"` and `"0"` are NO.
    static func stringBoolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = rest.first else { return false }
        if "YyTt".contains(first) { return true }
        if first == "+" || first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let digit = rest.first else { return false }
        return ("1"..."9").contains(digit)
    }
}
