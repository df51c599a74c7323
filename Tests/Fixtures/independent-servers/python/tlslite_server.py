"""A tlslite-ng server for atscheck's independent-server matrix (issue 35).

Listens on 127.0.0.1, completes handshakes (one thread per connection), answers one HTTP/1.0 line and closes.
tlslite-ng 0.8 with kyber-py negotiates the ML-KEM hybrids (x25519mlkem768) in TLS 1.3. The groups it accepts,
in its order of preference, are --groups; the suites are --ciphers (tlslite's names: aes128gcm, aes256gcm,
chacha20-poly1305), which it prefers in its own fixed order whatever the order given (AES-256-GCM, AES-128-GCM,
ChaCha20: tlslite/constants.py, CipherSuite.tls13Suites).
"""
import argparse
import socket
import sys
import threading

from tlslite.api import HandshakeSettings, TLSConnection, X509CertChain, parsePEMKey

VERSIONS = {"1.0": (3, 1), "1.1": (3, 2), "1.2": (3, 3), "1.3": (3, 4)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert", required=True, help="chain PEM, leaf first")
    parser.add_argument("--key", required=True, help="private key PEM")
    parser.add_argument("--min", default="1.3", choices=VERSIONS)
    parser.add_argument("--max", default="1.3", choices=VERSIONS)
    parser.add_argument("--groups", default="", help="comma-separated, in the server's order")
    parser.add_argument("--ciphers", default="", help="comma-separated tlslite cipher names")
    arguments = parser.parse_args()

    with open(arguments.cert) as file:
        chain = X509CertChain()
        chain.parsePemList(file.read())
    with open(arguments.key) as file:
        key = parsePEMKey(file.read(), private=True)
    settings = HandshakeSettings()
    settings.minVersion = VERSIONS[arguments.min]
    settings.maxVersion = VERSIONS[arguments.max]
    if arguments.groups:
        settings.eccCurves = arguments.groups.split(",")
        # TLS 1.3 groups only through eccCurves: no finite-field group either.
        settings.dhGroups = []
        # keyShares is what a client would send; validate() insists it names enabled groups only.
        settings.keyShares = [group for group in settings.keyShares if group in settings.eccCurves]
    if arguments.ciphers:
        settings.cipherNames = arguments.ciphers.split(",")
    settings = settings.validate()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", arguments.port))
    listener.listen(64)
    print("listening", file=sys.stderr, flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, chain, key, settings), daemon=True).start()


def serve(connection, chain, key, settings):
    connection.settimeout(5)
    tls = TLSConnection(connection)
    try:
        # ALPN configured as a real server's is: tlslite-ng 0.8.2 raises a TypeError past its ServerHello (and
        # closes) on any TLS 1.3 ClientHello with ALPN when the server has none (every Apple hello has ALPN).
        tls.handshakeServer(certChain=chain, privateKey=key, settings=settings, alpn=[bytearray(b"http/1.1")])
        tls.write(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")
        tls.close()
    except Exception:  # a refused or abandoned handshake: tlslite has sent its alert, if any
        pass
    finally:
        connection.close()


if __name__ == "__main__":
    main()
