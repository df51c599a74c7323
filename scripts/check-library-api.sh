#!/usr/bin/env bash
# The library product's public API is enough for a program outside the package (issue 33): typechecks
# Examples/library-client/main.swift against the built modules (`swift build` first) the way another package's
# code sees them, without this package's name, so no `package` declaration is visible to it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build --show-bin-path)"
swiftc -typecheck -parse-as-library -I "$bin/Modules" -I Sources/COpenSSL -I Sources/CZlibShim \
  -Xcc -fmodule-map-file="$bin/AppleTrustData.build/module.modulemap" \
  -Xcc -fmodule-map-file="$bin/CLinux.build/module.modulemap" \
  -Xcc -fmodule-map-file=.build/checkouts/Yams/Sources/CYaml/include/module.modulemap \
  Examples/library-client/main.swift
echo "library API: Examples/library-client typechecks against the public API"
