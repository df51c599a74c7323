import Foundation

/// nginx (Debian's nginx-light, built with the system OpenSSL) serving TLS on a loopback port with a configuration
/// of its own: what most web servers in front of an app's API run. nginx has no port 0: the port is picked free and
/// written into the configuration, and tried again elsewhere if taken in between (``IndependentServer/launch``).
///
/// It runs in the foreground as one process (`daemon off`, `master_process off`), so stopping the child stops it
/// all; its pid file, logs and temporary folders are in the server's private folder, never under /var.
package enum NginxServer {
    /// The `nginx` found (`PATH`, then /usr/sbin), or nil when it is not installed.
    package static let binary: String? = IndependentServer.which("nginx")

    /// What nginx's TLS directives say, one field per directive; nil leaves nginx's default.
    package struct Configuration: Sendable {
        /// `ssl_protocols`: `TLSv1.2 TLSv1.3`.
        package var protocols: String
        /// `ssl_ciphers`: an OpenSSL cipher string (TLS 1.2 and below; TLS 1.3's suites are OpenSSL's defaults,
        /// which nginx 1.22 does not configure).
        package var ciphers: String?
        /// `ssl_prefer_server_ciphers`: whether the server's order decides.
        package var preferServerCiphers: Bool
        /// `ssl_ecdh_curve`: the groups, as OpenSSL names them (`secp384r1`, `X25519:prime256v1`).
        package var ecdhCurve: String?

        /// - Parameters:
        ///   - protocols: `ssl_protocols`.
        ///   - ciphers: `ssl_ciphers`, or nil for nginx's default (`HIGH:!aNULL:!MD5`).
        ///   - preferServerCiphers: `ssl_prefer_server_ciphers` (off by default in nginx).
        ///   - ecdhCurve: `ssl_ecdh_curve`, or nil for nginx's default (`auto`: OpenSSL's list).
        package init(
            protocols: String = "TLSv1.2 TLSv1.3", ciphers: String? = nil, preferServerCiphers: Bool = false,
            ecdhCurve: String? = nil
        ) {
            self.protocols = protocols
            self.ciphers = ciphers
            self.preferServerCiphers = preferServerCiphers
            self.ecdhCurve = ecdhCurve
        }

        /// The `server` block's TLS directives.
        var directives: String {
            var lines = [
                "ssl_protocols \(protocols);", "ssl_prefer_server_ciphers \(preferServerCiphers ? "on" : "off");",
            ]
            if let ciphers { lines.append("ssl_ciphers \(ciphers);") }
            if let ecdhCurve { lines.append("ssl_ecdh_curve \(ecdhCurve);") }
            return lines.joined(separator: "\n        ")
        }
    }

    /// Starts nginx in the foreground on a loopback port.
    /// - Parameters:
    ///   - configuration: its TLS directives.
    ///   - credentials: the leaf it serves.
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` when nginx is not installed, or the server does not start.
    package static func start(
        _ configuration: Configuration = Configuration(), credentials: IndependentCredentials = .rsa
    ) throws -> IndependentServer {
        guard let binary else {
            throw TestSupportError(.process, "nginx is not installed (make deps: nginx-light)")
        }
        let folder = try TemporaryFolder("atscheck-nginx")
        let files = try credentials.write(to: folder)
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        return try IndependentServer.launch("nginx", folder: folder) { port in
            // Every path nginx would write under its compiled-in prefix (/var/lib/nginx, /run) is moved into the
            // folder, so it runs as any user and leaves nothing behind.
            let text = """
                daemon off;
                master_process off;
                pid \(folder.file("nginx-\(port).pid"));
                error_log \(folder.file("error.log")) warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path \(temporary);
                    proxy_temp_path \(temporary);
                    fastcgi_temp_path \(temporary);
                    uwsgi_temp_path \(temporary);
                    scgi_temp_path \(temporary);
                    server {
                        listen 127.0.0.1:\(port) ssl;
                        ssl_certificate \(files.chain);
                        ssl_certificate_key \(files.key);
                        \(configuration.directives)
                        location / { return 200 "ok\\n"; }
                    }
                }

                """
            let file = try folder.write(text, to: "nginx-\(port).conf")
            return IndependentServer.Command(binary, ["-p", folder.path, "-e", folder.file("error.log"), "-c", file])
        }
    }
}
