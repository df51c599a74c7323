#!/usr/bin/env bash
# Builds the demo app bundle (Demo.app, Demo.ipa, Demo.xcarchive) into a folder: a binary Info.plist compiled
# with Foundation, the demo CA pinned as demo-ca.cer, AFNetworking.framework with a version, a Mach-O
# executable written from Swift bytes holding URL strings, and a React Native main.jsbundle.
# Nothing third-party and nothing generated is committed.
#
# usage: Examples/app/make-demo-app.sh OUTPUT-FOLDER [CA.pem] [NAME=PORT ...] [--minimum-os VERSION]
#   CA.pem: the certificate to pin (the demo servers' --write-ca); default: a root minted for this run.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: $0 OUTPUT-FOLDER [CA.pem] [NAME=PORT ...] [--minimum-os VERSION]" >&2; exit 64; }
swift build --product atscheck-make-demo-app >/dev/null
"$(swift build --show-bin-path)/atscheck-make-demo-app" "$@"
