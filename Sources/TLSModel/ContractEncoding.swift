// The JSON contract (design.md §3) spells "could not tell" as an explicit `null`
// (`"supported": null`, `"error": null`, `"verifyError": null`). Synthesised Codable omits
// nil optionals, so these types encode every contract field by hand; decoding stays synthesised.

extension ServerProfile {
    enum CodingKeys: String, CodingKey {
        case target, host, port, address, sni, status, error, handshakes, protocols, certificate, scannedAt,
            durationSeconds, probeLibrary, scheme
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(target, forKey: .target)
        try c.encode(host, forKey: .host)
        try c.encode(port, forKey: .port)
        try c.encode(address, forKey: .address)
        try c.encode(sni, forKey: .sni)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        try c.encode(handshakes, forKey: .handshakes)
        try c.encode(protocols, forKey: .protocols)
        try c.encode(certificate, forKey: .certificate)
        try c.encode(scannedAt, forKey: .scannedAt)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encodeIfPresent(probeLibrary, forKey: .probeLibrary)
        try c.encodeIfPresent(scheme, forKey: .scheme)
    }
}

extension ProtocolResult {
    enum CodingKeys: String, CodingKey {
        case version, supported, reason, serverPreference, cipherSuites, enumerationComplete
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encode(supported, forKey: .supported)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encode(serverPreference, forKey: .serverPreference)
        try c.encode(cipherSuites, forKey: .cipherSuites)
        try c.encode(enumerationComplete, forKey: .enumerationComplete)
    }
}

extension CertificateReport {
    enum CodingKeys: String, CodingKey {
        case chain, trusted, hostnameMatches, verifyError, verifyErrorCode, verifiedChain, anchor, ocspStapled, verifiedAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(chain, forKey: .chain)
        try c.encode(trusted, forKey: .trusted)
        try c.encode(hostnameMatches, forKey: .hostnameMatches)
        try c.encode(verifyError, forKey: .verifyError)
        try c.encodeIfPresent(verifyErrorCode, forKey: .verifyErrorCode)
        try c.encode(verifiedChain, forKey: .verifiedChain)
        try c.encode(anchor, forKey: .anchor)
        try c.encode(ocspStapled, forKey: .ocspStapled)
        try c.encode(verifiedAt, forKey: .verifiedAt)
    }
}

extension ATSViolation {
    enum CodingKeys: String, CodingKey { case rule, message, keyPath }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(message, forKey: .message)
        try c.encode(keyPath, forKey: .keyPath)
    }
}

extension Finding {
    enum CodingKeys: String, CodingKey { case rule, severity, message, file, line, keyPath }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encode(message, forKey: .message)
        try c.encode(file, forKey: .file)
        try c.encode(line, forKey: .line)
        try c.encode(keyPath, forKey: .keyPath)
    }
}

extension DiagnosticTest {
    enum CodingKeys: String, CodingKey { case number, section, title, dictionary, result, reason }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(section, forKey: .section)
        try c.encode(title, forKey: .title)
        try c.encode(dictionary, forKey: .dictionary)
        try c.encode(result, forKey: .result)
        try c.encode(reason, forKey: .reason)
    }
}

extension MinimalException {
    enum CodingKeys: String, CodingKey { case status, domain, dictionary, plist, reason }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(domain, forKey: .domain)
        try c.encode(dictionary, forKey: .dictionary)
        try c.encode(plist, forKey: .plist)
        try c.encode(reason, forKey: .reason)
    }
}
