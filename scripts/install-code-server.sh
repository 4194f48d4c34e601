#!/usr/bin/env bash
# Idempotent offline install of code-server 4.100.3 for the e2e suite (docs/e2e.md).
#
#   bash scripts/install-code-server.sh [target-dir]     # default: <repo>/.cache/code-server
#
# The binary ends up at <target-dir>/node_modules/.bin/code-server. code-server's nested install
# (lib/vscode) runs @vscode/ripgrep's postinstall, which downloads from GitHub (unreachable here):
# we seed its download cache with Debian's `rg`, so it only unpacks the tarball. node-pty's
# postinstall needs `npx node-gyp` (npm_config_yes=true) and code-server's postinstall refuses to
# run as root without npm_config_unsafe_perm=true. See /work/shared/docs/vscode-e2e.md §1.
set -euo pipefail

VERSION=4.100.3
RIPGREP_PKG_VERSION=1.15.11                                   # pinned in lib/vscode/npm-shrinkwrap.json
RIPGREP_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

repo="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:-$repo/.cache/code-server}"
mkdir -p "$target"
target="$(cd "$target" && pwd)"
bin="$target/node_modules/.bin/code-server"
# code-server without --config writes ~/.config/code-server/config.yaml: keep it in a throwaway dir.
xdg="$(mktemp -d)"
trap 'rm -rf "$xdg"' EXIT
version_of() { XDG_CONFIG_HOME="$xdg" "$bin" --version 2>/dev/null | grep -E "^[0-9]+\.[0-9]+\.[0-9]+ " | head -n1; }

missing=()
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-code-server: missing system package(s): ${missing[*]}" >&2
  echo "  install them with: apt-get update && apt-get install -y chromium ripgrep libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev" >&2
  exit 1
fi

if [ -x "$bin" ]; then
  have="$(version_of | awk '{print $1}')" || have=""
  if [ "$have" = "$VERSION" ] && [ -x "$target/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]; then
    echo "install-code-server: code-server $VERSION already installed at $bin (nothing to do)"
    exit 0
  fi
  echo "install-code-server: found '${have:-unusable}' at $bin, reinstalling $VERSION"
fi

tmp="$(node -p 'require("os").tmpdir()')"
cache="$tmp/vscode-ripgrep-cache-$RIPGREP_PKG_VERSION"
if [ ! -s "$cache/$RIPGREP_ASSET" ]; then
  mkdir -p "$cache"
  d="$(mktemp -d)"
  cp "$(command -v rg)" "$d/rg"
  tar czf "$cache/$RIPGREP_ASSET" -C "$d" rg
  rm -rf "$d"
  echo "install-code-server: seeded ripgrep download cache $cache/$RIPGREP_ASSET from $(command -v rg)"
else
  echo "install-code-server: ripgrep download cache already seeded ($cache/$RIPGREP_ASSET)"
fi

[ -f "$target/package.json" ] || echo '{"name":"credit-lens-code-server-host","private":true}' > "$target/package.json"

echo "install-code-server: npm install code-server@$VERSION into $target (about 80 s on 2 cores)"
start=$(date +%s)
(
  cd "$target"
  npm_config_yes=true npm_config_unsafe_perm=true \
    npm install --no-audit --no-fund --no-save "code-server@$VERSION"
)
echo "install-code-server: npm install took $(( $(date +%s) - start )) s"

if [ ! -x "$target/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]; then
  echo "install-code-server: lib/vscode/node_modules/@vscode/ripgrep/bin/rg is missing: the nested install failed" >&2
  exit 1
fi
got="$(version_of)" || got=""
case "$got" in
  "$VERSION "*) echo "install-code-server: OK, $bin --version: $got" ;;
  *) echo "install-code-server: unexpected version '$got' from $bin" >&2; exit 1 ;;
esac
