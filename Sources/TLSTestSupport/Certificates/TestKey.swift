internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// The kind of key a test certificate carries.
package enum TestKeyType: Sendable, Hashable, CustomStringConvertible {
    /// RSA with a modulus of `bits` (1024, 2048, 4096, …).
    case rsa(bits: Int)
    /// EC on a named curve: `"P-256"`, `"P-384"`, `"P-521"`, `"P-224"` (secp224r1), or any OpenSSL group name.
    case ec(curve: String)
    /// DSA with a prime of `bits` (a key Apple refuses anywhere on a path).
    case dsa(bits: Int)

    package var description: String {
        switch self {
        case .rsa(let bits): return "rsa-\(bits)"
        case .ec(let curve): return "ec-\(curve)"
        case .dsa(let bits): return "dsa-\(bits)"
        }
    }

    /// OpenSSL's group name for an EC curve.
    var openSSLGroupName: String? {
        guard case .ec(let curve) = self else { return nil }
        switch curve {
        case "P-224": return "secp224r1"
        case "P-256": return "prime256v1"
        case "P-384": return "secp384r1"
        case "P-521": return "secp521r1"
        default: return curve
        }
    }
}

/// A private key (an OpenSSL `EVP_PKEY`, owned and freed by this object).
///
/// `@unchecked Sendable`: the key is never mutated after generation, and OpenSSL allows
/// concurrent read-only use of an `EVP_PKEY` (signing, `SSL_CTX_use_PrivateKey`).
package final class TestKey: @unchecked Sendable {
    /// The one owner of the `EVP_PKEY`.
    let key: OwnedEVPKey
    /// The kind of key.
    package let type: TestKeyType

    /// The `EVP_PKEY`, lent for as long as this key lives.
    var pointer: OpaquePointer { key.pointer }

    private init(takingOwnership pointer: OpaquePointer, type: TestKeyType) {
        self.key = OwnedEVPKey(takingOwnership: pointer)
        self.type = type
    }

    private static let cache = Locked([CacheKey: TestKey]())
    private struct CacheKey: Hashable {
        var type: TestKeyType
        var slot: String
    }

    /// A key of `type`, generated once per process and slot and then reused (RSA-4096 takes seconds).
    ///
    /// - Parameters:
    ///   - type: The key type.
    ///   - slot: Keys in different slots are different keys: use a distinct slot when a test needs two
    ///     certificates with different keys of the same type (a CA and its leaf, a pin mismatch).
    /// - Returns: The cached key.
    /// - Throws: ``TestSupportError`` with code `.keyGeneration` if OpenSSL cannot make such a key.
    package static func generate(_ type: TestKeyType, slot: String = "default") throws -> TestKey {
        let cacheKey = CacheKey(type: type, slot: slot)
        if let key = cache.withLock({ $0[cacheKey] }) { return key }
        let key = try generateUncached(type)
        return cache.withLock { cache in
            if let existing = cache[cacheKey] { return existing }  // another thread won the race
            cache[cacheKey] = key
            return key
        }
    }

    /// A freshly generated key, never cached.
    /// - Throws: ``TestSupportError`` with code `.keyGeneration`.
    package static func generateUncached(_ type: TestKeyType) throws -> TestKey {
        OpenSSLErrorQueue.clear()
        let algorithm: String
        switch type {
        case .rsa: algorithm = "RSA"
        case .ec: algorithm = "EC"
        case .dsa(let bits): return try generateDSA(bits: bits)
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_CTX_new_from_name(\(algorithm))")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_keygen_init")
        }
        switch type {
        case .rsa(let bits):
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
                throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_CTX_set_rsa_keygen_bits(\(bits))")
            }
        case .ec:
            let group = type.openSSLGroupName ?? ""
            guard EVP_PKEY_CTX_set_group_name(context, group) == 1 else {
                throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_CTX_set_group_name(\(group))")
            }
        case .dsa: break  // generated above
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen(context, &generated) == 1, let generated else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_keygen(\(type))")
        }
        return TestKey(takingOwnership: generated, type: type)
    }

    /// A DSA key: domain parameters first, then the key from them.
    private static func generateDSA(bits: Int) throws -> TestKey {
        guard let paramContext = EVP_PKEY_CTX_new_from_name(nil, "DSA", nil) else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_CTX_new_from_name(DSA)")
        }
        defer { EVP_PKEY_CTX_free(paramContext) }
        var parameters: OpaquePointer?
        guard EVP_PKEY_paramgen_init(paramContext) == 1,
            EVP_PKEY_CTX_set_dsa_paramgen_bits(paramContext, Int32(bits)) == 1,
            EVP_PKEY_paramgen(paramContext, &parameters) == 1, let parameters
        else { throw TestSupportError.openSSL(.keyGeneration, "DSA parameters (\(bits) bits)") }
        defer { EVP_PKEY_free(parameters) }
        guard let keyContext = EVP_PKEY_CTX_new_from_pkey(nil, parameters, nil) else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_CTX_new_from_pkey(DSA)")
        }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(keyContext) == 1, EVP_PKEY_keygen(keyContext, &generated) == 1, let generated else {
            throw TestSupportError.openSSL(.keyGeneration, "EVP_PKEY_keygen(DSA)")
        }
        return TestKey(takingOwnership: generated, type: .dsa(bits: bits))
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    package var pem: String {
        guard let bio = MemoryBIO() else { return "" }
        OpenSSLErrorQueue.clear()
        guard PEM_write_bio_PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil) == 1 else {
            OpenSSLErrorQueue.clear()
            return ""
        }
        return bio.string
    }

    /// Size of the key in bits, as OpenSSL reports it (2048 for RSA-2048, 256 for P-256).
    package var bits: Int { key.bits }
}
