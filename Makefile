# atscheck — build, test, demo, benchmark.
#
# `make test` and `make demo` work on a fresh Debian 12 machine that has only Swift:
# the `deps` target installs what is missing through apt.

SWIFT ?= swift
PREFIX ?= /usr/local
RELEASE_BIN = .build/release/atscheck
APT_PACKAGES = libssl-dev pkg-config openssl python3

.PHONY: all build release test demo bench install deps format clean

all: build

## deps: install the system packages the build needs (apt; skipped when present)
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
	@# The SARIF tests validate output against the committed 2.1.0 schema with python3's jsonschema.
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install --quiet jsonschema \
	  || { SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; $$SUDO apt-get install -y -qq python3-jsonschema; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product atscheck
	$(SWIFT) build -c release --product atscheck-demo-servers

## test: build and run every test (loopback only)
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## demo: start the bundled example servers on loopback, scan them, stop them
demo: release
	@Examples/demo.sh

## bench: compare atscheck with the peers on the same local servers
bench: release
	@Examples/bench.sh

install: release
	install -d $(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(PREFIX)/bin/atscheck

format:
	$(SWIFT) format --in-place --recursive Sources Tests

clean:
	rm -rf .build
