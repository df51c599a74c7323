// A JSSE server for atscheck's independent-server matrix (issue 35): listens on 127.0.0.1, completes handshakes,
// answers one HTTP/1.0 line and closes. Everything it accepts comes from its arguments; the named groups come from
// the jdk.tls.namedGroups system property (-Djdk.tls.namedGroups=secp384r1), which JSSE reads once at start.
//
//   java Server PORT CHAIN.pem KEY.pem PROTOCOLS SUITES HONOR_ORDER [DISABLED_ALGORITHMS]
//   PROTOCOLS, SUITES: comma-separated JSSE names ("-" for JSSE's defaults); HONOR_ORDER: true or false;
//   DISABLED_ALGORITHMS: replaces the jdk.tls.disabledAlgorithms security property (to re-enable TLS 1.0 or 3DES).
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

public final class Server {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        if (args.length > 6) {
            Security.setProperty("jdk.tls.disabledAlgorithms", args[6]);
        }
        Certificate[] chain = CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(Path.of(args[1]))))
            .toArray(new Certificate[0]);
        PrivateKey key = readKey(Files.readString(Path.of(args[2]), StandardCharsets.US_ASCII));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        char[] password = "atscheck".toCharArray();
        store.setKeyEntry("leaf", key, password, chain);
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);

        SSLServerSocket listener = (SSLServerSocket) context.getServerSocketFactory()
            .createServerSocket(port, 64, InetAddress.getByName("127.0.0.1"));
        SSLParameters parameters = listener.getSSLParameters();
        if (!args[3].equals("-")) parameters.setProtocols(args[3].split(","));
        if (!args[4].equals("-")) parameters.setCipherSuites(args[4].split(","));
        parameters.setUseCipherSuitesOrder(Boolean.parseBoolean(args[5]));
        listener.setSSLParameters(parameters);
        System.err.println("listening");
        while (true) {
            SSLSocket socket = (SSLSocket) listener.accept();
            Thread thread = new Thread(() -> serve(socket));
            thread.setDaemon(true);
            thread.start();
        }
    }

    private static void serve(SSLSocket socket) {
        try (socket) {
            socket.setSoTimeout(5000);
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (Exception refused) {
            // A refused or abandoned handshake: JSSE has already sent its alert, if any.
        }
    }

    private static PrivateKey readKey(String pem) throws Exception {
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body));
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(spec);
        } catch (Exception notRSA) {
            return KeyFactory.getInstance("EC").generatePrivate(spec);
        }
    }
}
