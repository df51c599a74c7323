internal import COpenSSL
func _opensslVersion() -> String { String(cString: OpenSSL_version(0)) }
