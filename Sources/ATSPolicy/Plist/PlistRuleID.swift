import TLSModel

/// The ids of the findings ``PlistLinter`` reports: an alias of ``RuleID/Plist``, whose entries (title,
/// help, usual severity) are in ``RuleRegistry/plist``.
package typealias PlistRuleID = RuleID.Plist
