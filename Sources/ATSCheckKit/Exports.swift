// The facade is the CLI's one door into the library: the value model and the policy types
// (OS versions, configurations, the plist document and linter) come through it.
@_exported import ATSPolicy
@_exported import TLSModel
@_exported import Pinning
