extension RuleID {
    /// Ids of the findings `atscheck plist` reports about an `NSAppTransportSecurity` dictionary. Each id is
    /// declared beside the rule that emits it, in ATSPolicy/Plist/Rules.
    public enum Plist: RuleNamespace {
        public static let family = RuleFamily.plist
    }
}
