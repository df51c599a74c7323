internal import COpenSSL

/// Owns one `EVP_PKEY` reference and frees it in `deinit`.
///
/// `@unchecked Sendable`: holders never mutate the key after creating it, and OpenSSL allows
/// concurrent read-only use of an `EVP_PKEY` (signing, `SSL_CTX_use_PrivateKey`).
package final class OwnedEVPKey: @unchecked Sendable {
    /// The key; valid as long as this object lives. Do not free it.
    package let pointer: OpaquePointer

    /// Takes ownership of a reference the caller holds (from `EVP_PKEY_keygen`, `SSL_get_peer_tmp_key`, …).
    package init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// The key size in bits as OpenSSL reports it (2048 for RSA-2048, 256 for P-256).
    package var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }
}
