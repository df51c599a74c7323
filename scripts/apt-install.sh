#!/bin/sh
# Installs the Debian packages named as arguments that are not installed yet (apt-get, with sudo when not root);
# does nothing when all are present. Used by `make deps-build` and `make deps`.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
# shellcheck disable=SC2086
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
