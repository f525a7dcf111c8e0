#!/usr/bin/env bash
# Debian packages the project needs: CJK fonts for the tile renderer, chromium for browser tests.
# Installed only when missing and only when we may (root); otherwise the tests that need them skip.
set -uo pipefail
need=()
[ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need+=(fonts-noto-cjk)
[ -e /usr/share/fonts/truetype/arphic/ukai.ttc ] || need+=(fonts-arphic-ukai)
[ -e /usr/share/fonts/truetype/arphic/uming.ttc ] || need+=(fonts-arphic-uming)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "note: cannot install ${need[*]} (not root or no apt); tests that need them will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
  || echo "note: apt-get install ${need[*]} failed; tests that need them will skip" >&2
exit 0
