# atscheck — build, test, demo, benchmark.
#
# `make test` and `make demo` work on a fresh Debian 12 machine that has only Swift:
# the `deps` target installs what is missing through apt.

SWIFT ?= swift
PREFIX ?= /usr/local
RELEASE_BIN = .build/release/atscheck
APT_PACKAGES = $(BUILD_PACKAGES) openssl python3 tinyproxy-bin $(INDEPENDENT_SERVER_PACKAGES)
## The servers of stacks this project did not write that the independent-server matrix scans (issue 35;
## docs/independent-servers.md): GnuTLS's gnutls-serv, lighttpd with each TLS module, Go for a crypto/tls server,
## and nginx, against which the Apple client simulation is checked (issue 36).
INDEPENDENT_SERVER_PACKAGES = gnutls-bin lighttpd lighttpd-mod-gnutls lighttpd-mod-mbedtls lighttpd-mod-wolfssl \
  lighttpd-mod-nss lighttpd-mod-openssl golang-go nginx-light

.PHONY: all stamp deps-build man try try-stop build release test conformance demo bench install deps format lint clean fuzz sanitize apple-trust

all: build

## deps-build: the system packages building atscheck needs (apt; skipped when present)
BUILD_PACKAGES = libssl-dev zlib1g-dev pkg-config
deps-build:
	@sh scripts/apt-install.sh $(BUILD_PACKAGES)

## deps: install the system packages the build, the tests and the demo need (apt; skipped when present)
deps:
	@sh scripts/apt-install.sh $(APT_PACKAGES)
	@# The SARIF tests validate output against the committed 2.1.0 schema with python3's jsonschema.
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install --quiet jsonschema \
	  || { SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; $$SUDO apt-get install -y -qq python3-jsonschema; }
	@# The HTML report tests parse every page with python3's html5lib in strict mode.
	@python3 -c 'import html5lib' 2>/dev/null || python3 -m pip install --quiet html5lib \
	  || { SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; $$SUDO apt-get install -y -qq python3-html5lib; }
	@# The JSSE server of the independent-server matrix needs a JDK (javac); Debian's default one when none is there.
	@command -v javac >/dev/null 2>&1 || sh scripts/apt-install.sh default-jdk-headless
	@# tlslite-ng 0.8 with kyber-py: a pure-Python TLS 1.3 server that negotiates X25519MLKEM768 (PyPI only), for
	@# TLSHello's proofs and the independent-server matrix.
	@python3 -c 'import kyber_py; from tlslite.handshakesettings import CURVE_NAMES; assert "x25519mlkem768" in CURVE_NAMES' \
	  2>/dev/null || python3 -m pip install --quiet 'tlslite-ng==0.8.2' 'kyber-py==1.2.0'

## stamp: write the commit into the binary (Sources/AppleTrustData/build-stamp.h, gitignored; rewritten only when it
## changes, so an unchanged commit rebuilds nothing). `atscheck --version` prints it.
STAMP = Sources/AppleTrustData/build-stamp.h
stamp:
	@commit=$$(git describe --always --dirty 2>/dev/null || true); \
	line="#define ATSCHECK_COMMIT \"$$commit\""; \
	if [ -n "$$commit" ] && [ "$$(cat $(STAMP) 2>/dev/null)" != "$$line" ]; then echo "$$line" > $(STAMP); fi

## build: debug build (.build/debug/atscheck). WERROR=1 (CI) builds the tests too and fails on any compiler
## warning in Sources/ or Tests/. Not -Xswiftc -warnings-as-errors: SwiftPM passes -suppress-warnings to the
## remote dependencies and the two flags conflict, so the build log is checked instead. Warnings are printed
## only for files compiled, so locally run `make clean build WERROR=1` for a complete check.
WERROR ?= 0
build: deps
ifeq ($(WERROR),1)
	@mkdir -p .build
	$(SWIFT) build --build-tests > .build/build.log 2>&1; status=$$?; cat .build/build.log; exit $$status
	@if grep -E '^$(CURDIR)/(Sources|Tests)/.*: warning:' .build/build.log; then \
	  echo "error: compiler warnings in Sources/ or Tests/ (make build WERROR=1)" >&2; exit 1; fi
else
	$(SWIFT) build
endif

release: deps stamp
	$(SWIFT) build -c release --product atscheck
	$(SWIFT) build -c release --product atscheck-demo-servers
	$(SWIFT) build -c release --product atscheck-make-demo-app

## test: build; check that Examples/library-client compiles against the library's public API alone
## (scripts/check-library-api.sh); run every test (loopback only), then the fast x509-limbo conformance subset
## against the debug binary. A failing run ends by repeating every failed test's lines, so the end of a long CI log names them.
test: deps stamp
	$(SWIFT) build --build-tests
	scripts/check-library-api.sh
	@mkdir -p .build
	@{ $(SWIFT) test --skip-build 2>&1; echo $$? > .build/test.status; } | tee .build/test.log; \
	status=$$(cat .build/test.status); \
	if [ $$status -ne 0 ]; then \
	  echo "== failed tests (from .build/test.log) =="; grep -E '✘|error:|recorded an issue' .build/test.log | head -60; \
	  exit $$status; fi
	python3 scripts/x509-limbo/run.py --atscheck .build/debug/atscheck --subset fast --check

## conformance: every x509-limbo server case against `atscheck cert`; rewrites docs/conformance.md
conformance: deps
	$(SWIFT) build --product atscheck
	python3 scripts/x509-limbo/run.py --atscheck .build/debug/atscheck --jobs 2 --write-doc docs/conformance.md

## demo: start the bundled example servers on loopback, scan them, stop them
demo: release
	@Examples/demo.sh

## try: start the demo servers on loopback and leave them running, with a demo .ipa in .demo/app and this run's
## targets in .demo/try.env, to try the README's commands by hand; `make try-stop` stops them
try: release
	@Examples/try.sh start

try-stop:
	@Examples/try.sh stop

## bench: compare atscheck with the peers on the same local servers, on loopback and behind 50 ms (openssl s_server
## beside its serial floor, nginx), with each tool's peak threads and RSS, then the 1,000- and 10,000-endpoint batch
## (Examples/scale.sh) and sslyze --targets_in on the 1,000; writes docs/benchmarks.md (about 10-15 min on 2 cores)
bench: release
	@Examples/bench.sh

## fuzz: build the libFuzzer targets (Fuzz/) with ASan and run each for FUZZ_SECONDS (default 30)
FUZZ_SECONDS ?= 30
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) Fuzz/run.sh

## sanitize: the test suite under AddressSanitizer (LeakSanitizer with Foundation's leaks suppressed), then ThreadSanitizer
sanitize: deps
	$(SWIFT) build --build-tests -Xswiftc -sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt:print_suppressions=0 \
	  $(SWIFT) test --skip-build -Xswiftc -sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests -Xswiftc -sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/Fuzz/tsan-suppressions.txt \
	  $(SWIFT) test --skip-build -Xswiftc -sanitize=thread --scratch-path .build-tsan

## install: the release binary and its manual page under PREFIX (default /usr/local). Builds only `atscheck` and needs
## only the build's system packages: no test or demo dependency.
install: deps-build stamp
	$(SWIFT) build -c release --product atscheck
	$(MAKE) --no-print-directory man
	install -d $(PREFIX)/bin $(PREFIX)/share/man/man1
	install -m 0755 $(RELEASE_BIN) $(PREFIX)/bin/atscheck
	install -m 0644 .build/man/*.1 $(PREFIX)/share/man/man1/

## man: the manual pages (.build/man/atscheck.1 and one per subcommand), made by swift-argument-parser's
## generate-manual plugin from the same help text as `--help`.
man:
	mkdir -p .build/man
	$(SWIFT) package --allow-writing-to-directory .build/man generate-manual --multi-page --output-directory .build/man

## format: rewrite Sources, Tests and Package.swift with the checked-in .swift-format.
format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

## lint: the checks CI runs besides the tests: `swift format lint --strict` with the checked-in .swift-format
## (line length 120; a warning fails), the module rules (scripts/check-layers.py: no OpenSSL under the pure
## modules, no @_exported), and the citations (scripts/check-citations.py: every file a comment or doc cites is in
## the repository, and every docs/apple-rules.md or docs/pinning-rules.md section cited exists), with the tests of
## that checker and of scripts/rewrite-citations.py.
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	python3 scripts/check-layers.py
	python3 scripts/check-citations.py
	python3 scripts/test_check_citations.py --quiet

## apple-trust: regenerate the bundled Apple trust data (Sources/AppleTrustData) from a local copy of
## https://github.com/apple-oss-distributions/security_certificates (a clone or bare mirror):
##   make apple-trust SECURITY_CERTIFICATES=/path/to/security_certificates
## The tags, and which OS release each stands for, are listed in scripts/apple-trust/generate.py. Needs
## python3-cryptography (root names). The output is data: commit it with the script's provenance.
apple-trust:
	@test -n "$(SECURITY_CERTIFICATES)" || { echo "make apple-trust SECURITY_CERTIFICATES=PATH (a copy of apple-oss-distributions/security_certificates)"; exit 2; }
	python3 scripts/apple-trust/generate.py --repo "$(SECURITY_CERTIFICATES)" --out Sources/AppleTrustData

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
