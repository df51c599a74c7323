// The one header through which Swift sees OpenSSL.
//
// OpenSSL exposes much of its API as function-like macros and type-safe stack
// macros, which Swift cannot import. Each is wrapped here as a `static inline`
// function with the `atsc_` prefix (a system-library target compiles no .c
// file, so the shims must be header-only).
#ifndef ATSCHECK_COPENSSL_SHIM_H
#define ATSCHECK_COPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/ct.h>
#include <openssl/ocsp.h>
#include <openssl/pkcs7.h>
#include <openssl/objects.h>
#include <openssl/provider.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>

// MARK: SSL_CTX / SSL control macros

static inline int atsc_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int atsc_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
static inline int atsc_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
static inline int atsc_SSL_CTX_set_tlsext_status_type_ocsp(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_tlsext_status_type(ctx, TLSEXT_STATUSTYPE_ocsp);
}
static inline int atsc_SSL_set_tlsext_status_type_ocsp(SSL *ssl) {
    return (int)SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp);
}
/// Client side: the stapled OCSP response the server sent, lent by `ssl` through `*resp`; its length, or -1 with none.
static inline long atsc_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **resp) {
    *resp = NULL;
    long len = SSL_get_tlsext_status_ocsp_resp(ssl, resp);
    return (*resp == NULL) ? -1 : len;
}
/// Server side: staple `len` bytes (copied) as the OCSP response.
static inline int atsc_SSL_set_tlsext_status_ocsp_resp_copy(SSL *ssl, const unsigned char *bytes, long len) {
    unsigned char *copy = OPENSSL_malloc((size_t)len);
    if (copy == NULL) return 0;
    memcpy(copy, bytes, (size_t)len);
    return (int)SSL_set_tlsext_status_ocsp_resp(ssl, copy, len);
}
typedef int (*atsc_status_cb)(SSL *, void *);
static inline int atsc_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, atsc_status_cb cb) {
    return (int)SSL_CTX_set_tlsext_status_cb(ctx, cb);
}
static inline int atsc_SSL_CTX_set_tlsext_status_arg(SSL_CTX *ctx, void *arg) {
    return (int)SSL_CTX_set_tlsext_status_arg(ctx, arg);
}
static inline int atsc_SSL_get_peer_tmp_key(SSL *ssl, EVP_PKEY **key) {
    return (int)SSL_get_peer_tmp_key(ssl, key);
}
static inline int atsc_SSL_CTX_set_dh_auto(SSL_CTX *ctx, int onoff) {
    return (int)SSL_CTX_set_dh_auto(ctx, onoff);
}
static inline int atsc_SSL_CTX_set1_groups_list(SSL_CTX *ctx, const char *list) {
    return (int)SSL_CTX_set1_groups_list(ctx, list);
}
static inline int atsc_SSL_CTX_add0_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return (int)SSL_CTX_add0_chain_cert(ctx, cert);
}
static inline int atsc_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return (int)SSL_CTX_add1_chain_cert(ctx, cert);
}
static inline long atsc_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}
static inline int atsc_SSL_CTX_set_max_cert_list(SSL_CTX *ctx, long size) {
    return (int)SSL_CTX_set_max_cert_list(ctx, size);
}
static inline int atsc_SSL_get_negotiated_group(SSL *ssl) {
    return (int)SSL_get_negotiated_group(ssl);
}
static inline int atsc_SSL_get_extms_support(SSL *ssl) {
    return (int)SSL_get_extms_support(ssl);
}


// MARK: Option constants (SSL_OP_* are 64-bit macros built from shifts Swift cannot import)

static inline uint64_t atsc_SSL_OP_LEGACY_SERVER_CONNECT(void) { return SSL_OP_LEGACY_SERVER_CONNECT; }
static inline uint64_t atsc_SSL_OP_ALLOW_UNSAFE_LEGACY_RENEGOTIATION(void) { return SSL_OP_ALLOW_UNSAFE_LEGACY_RENEGOTIATION; }
static inline uint64_t atsc_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
static inline uint64_t atsc_SSL_OP_PRIORITIZE_CHACHA(void) { return SSL_OP_PRIORITIZE_CHACHA; }
static inline uint64_t atsc_SSL_OP_NO_TICKET(void) { return SSL_OP_NO_TICKET; }
static inline long atsc_SSL_CTX_set_session_cache_off(SSL_CTX *ctx) { return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF); }

// MARK: BIO

static inline long atsc_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}
static inline int atsc_BIO_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}
static inline size_t atsc_BIO_ctrl_pending(BIO *bio) {
    return BIO_ctrl_pending(bio);
}

// MARK: Errors

static inline int atsc_ERR_GET_LIB(unsigned long e) { return ERR_GET_LIB(e); }
static inline int atsc_ERR_GET_REASON(unsigned long e) { return ERR_GET_REASON(e); }
/// OpenSSL reports a received TLS alert as reason SSL_AD_REASON_OFFSET + alert code.
static inline int atsc_SSL_AD_REASON_OFFSET(void) { return SSL_AD_REASON_OFFSET; }

// MARK: Stacks

static inline int atsc_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *atsc_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline STACK_OF(X509) *atsc_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int atsc_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void atsc_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline void atsc_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }

static inline int atsc_sk_GENERAL_NAME_num(const GENERAL_NAMES *sk) { return sk_GENERAL_NAME_num(sk); }
static inline GENERAL_NAME *atsc_sk_GENERAL_NAME_value(const GENERAL_NAMES *sk, int i) { return sk_GENERAL_NAME_value(sk, i); }
static inline void atsc_GENERAL_NAMES_free(GENERAL_NAMES *sk) { GENERAL_NAMES_free(sk); }

static inline int atsc_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *sk) { return sk_ASN1_OBJECT_num(sk); }
static inline ASN1_OBJECT *atsc_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *sk, int i) { return sk_ASN1_OBJECT_value(sk, i); }
static inline void atsc_EXTENDED_KEY_USAGE_free(EXTENDED_KEY_USAGE *eku) { EXTENDED_KEY_USAGE_free(eku); }

static inline int atsc_sk_SCT_num(const STACK_OF(SCT) *sk) { return sk_SCT_num(sk); }
static inline void atsc_SCT_LIST_free(STACK_OF(SCT) *sk) { SCT_LIST_free(sk); }
static inline SCT *atsc_sk_SCT_value(const STACK_OF(SCT) *sk, int i) { return sk_SCT_value(sk, i); }

static inline int atsc_sk_SSL_CIPHER_num(const STACK_OF(SSL_CIPHER) *sk) { return sk_SSL_CIPHER_num(sk); }
static inline const SSL_CIPHER *atsc_sk_SSL_CIPHER_value(const STACK_OF(SSL_CIPHER) *sk, int i) { return sk_SSL_CIPHER_value(sk, i); }
static inline void atsc_sk_SSL_CIPHER_free(STACK_OF(SSL_CIPHER) *sk) { sk_SSL_CIPHER_free(sk); }

// MARK: GENERAL_NAME accessors (a union Swift cannot read safely)

/// Returns the GEN_* type and, for DNS/email/URI/IP names, the raw bytes.
static inline int atsc_GENERAL_NAME_get(const GENERAL_NAME *name, const unsigned char **data, int *length) {
    *data = NULL; *length = 0;
    switch (name->type) {
    case GEN_DNS: case GEN_EMAIL: case GEN_URI: case GEN_IPADD: {
        const ASN1_STRING *s = name->d.ia5; /* ia5 and iPAddress share the ASN1_STRING layout */
        *data = ASN1_STRING_get0_data(s);
        *length = ASN1_STRING_length(s);
        break;
    }
    default: break;
    }
    return name->type;
}
static inline int atsc_GEN_DNS(void) { return GEN_DNS; }
static inline int atsc_GEN_IPADD(void) { return GEN_IPADD; }
static inline int atsc_GEN_EMAIL(void) { return GEN_EMAIL; }
static inline int atsc_GEN_URI(void) { return GEN_URI; }

// MARK: Basic constraints

static inline int atsc_BASIC_CONSTRAINTS_get(X509 *x, int *isCA, long *pathLen) {
    int crit = 0;
    BASIC_CONSTRAINTS *bc = X509_get_ext_d2i(x, NID_basic_constraints, &crit, NULL);
    if (bc == NULL) return 0;
    *isCA = bc->ca ? 1 : 0;
    *pathLen = (bc->pathlen != NULL) ? ASN1_INTEGER_get(bc->pathlen) : -1;
    BASIC_CONSTRAINTS_free(bc);
    return 1;
}

// MARK: X509V3 context without a config database

static inline void atsc_X509V3_set_ctx_nodb(X509V3_CTX *ctx) { X509V3_set_ctx_nodb(ctx); }

// MARK: Misc

static inline unsigned long atsc_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

static inline void atsc_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline const char *atsc_OPENSSL_VERSION_TEXT(void) { return OPENSSL_VERSION_TEXT; }

// MARK: Path checks trustd makes and OpenSSL does not

/// Whether an extension's value decodes: 1 yes, 0 it does not, -1 OpenSSL has no decoder for it. The decoded value
/// is freed here (through the method's ASN1_ITEM, or its own free function for old-style methods).
static inline int atsc_extension_decodes(X509_EXTENSION *ext) {
    const X509V3_EXT_METHOD *method = X509V3_EXT_get(ext);
    if (method == NULL) return -1;
    void *value = X509V3_EXT_d2i(ext);
    if (value == NULL) return 0;
    if (method->it) ASN1_item_free((ASN1_VALUE *)value, ASN1_ITEM_ptr(method->it));
    else if (method->ext_free) method->ext_free(value);
    return 1;
}

/// X509_get_key_usage's "no key usage extension" answer.
static inline uint32_t atsc_no_key_usage(void) { return UINT32_MAX; }

// MARK: OCSP (stapled responses checked as trustd checks them)

/// Whether `key` verifies the signature of a basic OCSP response over its ResponseData: 1 yes, 0 no, -1 could not
/// tell (an unknown algorithm). OpenSSL 3.0 does not export OCSP_BASICRESP_verify, and ASN1_ITEM_rptr is a macro.
static inline int atsc_OCSP_BASICRESP_signature_verifies(OCSP_BASICRESP *bs, EVP_PKEY *key) {
    return ASN1_item_verify(ASN1_ITEM_rptr(OCSP_RESPDATA), OCSP_resp_get0_tbs_sigalg(bs),
                            OCSP_resp_get0_signature(bs), OCSP_resp_get0_respdata(bs), key);
}
static inline int atsc_sk_X509_num_const(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *atsc_sk_X509_value_const(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline int atsc_V_OCSP_CERTSTATUS_GOOD(void) { return V_OCSP_CERTSTATUS_GOOD; }
static inline int atsc_V_OCSP_CERTSTATUS_REVOKED(void) { return V_OCSP_CERTSTATUS_REVOKED; }
static inline int atsc_V_OCSP_CERTSTATUS_UNKNOWN(void) { return V_OCSP_CERTSTATUS_UNKNOWN; }

/// The OCSP responder URLs of a certificate's authorityInfoAccess (X509_get1_ocsp), one at a time.
static inline int atsc_sk_OPENSSL_STRING_num(STACK_OF(OPENSSL_STRING) *sk) { return sk_OPENSSL_STRING_num(sk); }
static inline const char *atsc_sk_OPENSSL_STRING_value(STACK_OF(OPENSSL_STRING) *sk, int i) {
    return sk_OPENSSL_STRING_value(sk, i);
}

/// The certificatePolicies of a certificate: their count (-1 without the extension, or one that does not decode)
/// and the i-th policy OID, written dotted into `buffer`.
static inline int atsc_certificate_policy_count(X509 *x) {
    CERTIFICATEPOLICIES *policies = X509_get_ext_d2i(x, NID_certificate_policies, NULL, NULL);
    if (policies == NULL) return -1;
    int count = sk_POLICYINFO_num(policies);
    CERTIFICATEPOLICIES_free(policies);
    return count;
}
static inline int atsc_certificate_policy_oid(X509 *x, int i, char *buffer, int size) {
    CERTIFICATEPOLICIES *policies = X509_get_ext_d2i(x, NID_certificate_policies, NULL, NULL);
    if (policies == NULL) return -1;
    int written = -1;
    if (i >= 0 && i < sk_POLICYINFO_num(policies)) {
        written = OBJ_obj2txt(buffer, size, sk_POLICYINFO_value(policies, i)->policyid, 1);
    }
    CERTIFICATEPOLICIES_free(policies);
    return written;
}

// MARK: TLSTestSupport (server side and certificate minting)

/// (The SSL_OP_* option shims used by the test server are in the Option constants section above.)
static inline int atsc_MBSTRING_ASC(void) { return MBSTRING_ASC; }

// MARK: Fetching (HTTPS downloads and AIA caIssuers)

/// OpenSSL 3's option to read a close without close_notify as the end of the stream: the body of a response with
/// `Content-Length` or chunked framing is checked for completeness by the HTTP reader instead.
static inline uint64_t atsc_SSL_OP_IGNORE_UNEXPECTED_EOF(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline int atsc_sk_ACCESS_DESCRIPTION_num(const AUTHORITY_INFO_ACCESS *sk) { return sk_ACCESS_DESCRIPTION_num(sk); }
/// Entry `i` of an AIA extension: returns the access method's NID and, when the location is a URI, points `uri` at
/// its bytes (borrowed from `sk`); `uri` stays NULL for any other kind of name.
static inline int atsc_AIA_entry(const AUTHORITY_INFO_ACCESS *sk, int i, const unsigned char **uri, int *length) {
    ACCESS_DESCRIPTION *entry = sk_ACCESS_DESCRIPTION_value(sk, i);
    *uri = NULL;
    *length = 0;
    if (entry == NULL) return NID_undef;
    if (entry->location != NULL && entry->location->type == GEN_URI) {
        *uri = ASN1_STRING_get0_data(entry->location->d.uniformResourceIdentifier);
        *length = ASN1_STRING_length(entry->location->d.uniformResourceIdentifier);
    }
    return OBJ_obj2nid(entry->method);
}
/// The certificates of a PKCS#7 SignedData (a "certs-only" message), borrowed from `p7`; NULL for any other type.
static inline STACK_OF(X509) *atsc_PKCS7_signed_certificates(PKCS7 *p7) {
    if (p7 == NULL || OBJ_obj2nid(p7->type) != NID_pkcs7_signed || p7->d.sign == NULL) return NULL;
    return p7->d.sign->cert;
}

// MARK: Process-wide initialisation

/// Initialises libcrypto and libssl without registering OpenSSL's at-exit cleanup: `exit()` must not
/// free OpenSSL's global state while a probe thread is still inside libcrypto (issue 8). Must be the
/// process's first OpenSSL call to take effect. Returns 1 on success.
static inline int atsc_OPENSSL_init_no_atexit(void) {
    if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL)) return 0;
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

#endif
