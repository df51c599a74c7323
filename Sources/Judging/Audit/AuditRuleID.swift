import TLSModel

/// The ids of the findings `atscheck audit` adds: an alias of ``RuleID/Audit`` (entries in ``RuleRegistry/audit``).
package typealias AuditRuleID = RuleID.Audit

/// The ids of the findings an endpoint list can produce: an alias of ``RuleID/Endpoints``.
package typealias EndpointListRuleID = RuleID.Endpoints

/// The ids of the findings a baseline adds: an alias of ``RuleID/Baseline``.
package typealias BaselineRuleID = RuleID.Baseline
