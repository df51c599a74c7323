// A crypto/tls server for atscheck's independent-server matrix (issue 35): it listens on 127.0.0.1, completes
// handshakes, answers one HTTP/1.0 line and closes. Everything it accepts comes from its flags.
//
// Go's server ignores the order of -suites (Config.PreferServerCipherSuites is ignored since Go 1.17): it picks
// from one of two built-in orders, AES-GCM first when the client's first known suite is AES-GCM and this machine
// has AES hardware, ChaCha20 first otherwise (crypto/tls cipher_suites.go, aesgcmPreferred).
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"strconv"
	"strings"
)

var versions = map[string]uint16{
	"1.0": tls.VersionTLS10, "1.1": tls.VersionTLS11, "1.2": tls.VersionTLS12, "1.3": tls.VersionTLS13,
}

var curves = map[string]tls.CurveID{
	"X25519": tls.X25519, "P-256": tls.CurveP256, "P-384": tls.CurveP384, "P-521": tls.CurveP521,
}

func main() {
	port := flag.Int("port", 0, "loopback port")
	cert := flag.String("cert", "", "chain PEM, leaf first")
	key := flag.String("key", "", "private key PEM")
	minVersion := flag.String("min", "1.2", "lowest version: 1.0, 1.1, 1.2, 1.3")
	maxVersion := flag.String("max", "1.3", "highest version")
	suites := flag.String("suites", "", "TLS 1.0-1.2 suites as hex codepoints (0xC02F,...); empty: Go's defaults")
	groups := flag.String("groups", "", "groups (X25519,P-256,P-384,P-521); empty: Go's defaults")
	flag.Parse()

	pair, err := tls.LoadX509KeyPair(*cert, *key)
	if err != nil {
		log.Fatal(err)
	}
	config := &tls.Config{Certificates: []tls.Certificate{pair}}
	var ok bool
	if config.MinVersion, ok = versions[*minVersion]; !ok {
		log.Fatalf("unknown version %q", *minVersion)
	}
	if config.MaxVersion, ok = versions[*maxVersion]; !ok {
		log.Fatalf("unknown version %q", *maxVersion)
	}
	for _, text := range split(*suites) {
		code, err := strconv.ParseUint(text, 0, 16)
		if err != nil {
			log.Fatalf("suite %q: %v", text, err)
		}
		config.CipherSuites = append(config.CipherSuites, uint16(code))
	}
	for _, name := range split(*groups) {
		curve, ok := curves[name]
		if !ok {
			log.Fatalf("unknown group %q", name)
		}
		config.CurvePreferences = append(config.CurvePreferences, curve)
	}

	listener, err := tls.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port), config)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stderr, "listening")
	for {
		conn, err := listener.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go serve(conn)
	}
}

func serve(conn net.Conn) {
	defer conn.Close()
	if err := conn.(*tls.Conn).Handshake(); err != nil {
		return
	}
	conn.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"))
}

func split(list string) []string {
	var parts []string
	for _, part := range strings.Split(list, ",") {
		if part = strings.TrimSpace(part); part != "" {
			parts = append(parts, part)
		}
	}
	return parts
}
