#!/usr/bin/env bash
# The test command: installs the Debian packages the tests drive for real (if missing), starts the
# machine's PostgreSQL, then runs every test, unit and end-to-end (real nginx, real libfcgi, real SQLite and
# PostgreSQL, real storegate processes on loopback, Debian's chromium for the support page), the example
# handler module's own tests and a gateway built with it (storegate-build) and, as root, the Debian package
# (Tests/package.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libfcgi-dev libmimalloc-dev libfcgi-bin libsqlite3-dev libpq-dev postgresql nginx spawn-fcgi pkg-config chromium python3)
# As root, the Debian package is built, linted, installed and purged too (Tests/package.sh; a release build,
# 5 to 12 minutes the first time); STOREGATE_TEST_PACKAGE=0 leaves it out.
package_test=0
if [ "$(id -u)" -eq 0 ] && [ "${STOREGATE_TEST_PACKAGE:-1}" != 0 ]; then package_test=1; packages+=(dpkg-dev lintian curl); fi
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing test dependencies: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Google's own client libraries, the peers the Google Play side is checked against: google-auth (the service
# account's login) and the Play Developer API's discovery document in google-api-python-client.
if ! python3 -c "import google.auth, requests, googleapiclient" 2>/dev/null; then
    echo "installing the Python peers: google-auth requests google-api-python-client"
    python3 -m pip --version >/dev/null 2>&1 || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check google-auth requests google-api-python-client
fi
# The S3 and CloudFront side's peers and stand-in: botocore (the AWS SDK's signers, the tests' oracle), moto's S3
# server (the storage behind Tests/Support/StorageStandin), cryptography (CloudFront's RSA keys).
if ! python3 -c "import boto3, botocore, cryptography, moto.moto_server.werkzeug_app, werkzeug" 2>/dev/null; then
    echo "installing the AWS peers: moto[server] boto3 cryptography"
    python3 -m pip --version >/dev/null 2>&1 || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check "moto[server]" boto3 cryptography
fi
# A separate assignment, so a PostgreSQL that cannot be prepared stops the run here (export would hide it).
if [ -z "${STOREGATE_TEST_POSTGRES_URL:-}" ]; then STOREGATE_TEST_POSTGRES_URL=$(Tests/postgres.sh); fi
export STOREGATE_TEST_POSTGRES_URL
swift build --build-tests
# Handler modules from outside (OutsideModules) build a whole gateway again, for minutes: after the others, on
# their own, so they do not compete with timed tests for the two cores; with the example module's own tests.
swift test --skip-build --skip OutsideModules "$@"
if [ $# -eq 0 ] && [ "${STOREGATE_TEST_OUTSIDE:-1}" != 0 ]; then
    swift test --package-path examples/reader-handler
    swift test --skip-build --filter OutsideModules
else
    echo "the outside-module tests were left out (they run with no test arguments, unless STOREGATE_TEST_OUTSIDE=0)"
fi
if [ "$package_test" = 1 ]; then
    Tests/package.sh
else
    echo "the Debian package test was left out (it runs as root, unless STOREGATE_TEST_PACKAGE=0)"
fi
