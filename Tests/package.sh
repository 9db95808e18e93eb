#!/usr/bin/env bash
# The Debian package, as an operator meets it (run by Tests/run.sh as root, unless STOREGATE_TEST_PACKAGE=0;
# it changes the machine: it installs the package, and purges it at the end).
# Builds it (deploy/debian/build-deb.sh), runs lintian (whose remaining tags deploy/debian/lintian-expected
# lists, each explained), installs it with dpkg -i, checks the installed example config, starts the installed
# binary as the storegate user the way the systemd unit does, and asks nginx, with the installed example site
# in front, for the catalog and for a file behind a download token; then purges it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "the package test installs a package: run it as root" >&2; exit 1; }
# It purges the package and its state when done: never on a machine where storegate is installed for real.
if dpkg-query -W -f='${Status}' storegate 2>/dev/null | grep -q installed || [ -e /var/lib/storegate ]; then
    echo "storegate is installed here (or /var/lib/storegate exists): the package test runs only where it is not" >&2
    exit 1
fi
work=$(mktemp -d)
gateway="" nginx_started=""
cleanup() {
    [ -z "$gateway" ] || kill -TERM "$gateway" 2>/dev/null || true
    [ -z "$nginx_started" ] || /usr/sbin/nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -s stop 2>/dev/null || true
    dpkg --purge storegate >/dev/null 2>&1 || true
    rm -rf "$work" /run/storegate /var/lib/storegate
}
trap cleanup EXIT
fail() { echo "package test: $*" >&2; exit 1; }

package=$("$top/deploy/debian/build-deb.sh" "$work/out")
echo "package test: built $(basename "$package") ($(du -h "$package" | cut -f1))"

# lintian: every tag it still gives must be one deploy/debian/lintian-expected explains (an entry is the tag and
# what it names, up to two spaces; the rest of its line says why).
lintian --tag-display-limit 0 "$package" >"$work/lintian.txt" 2>&1 || true
unexpected=$(python3 - "$work/lintian.txt" "$top/deploy/debian/lintian-expected" <<'PY'
import re, sys
expected = [line.split("  ")[0].strip() for line in open(sys.argv[2]) if line.strip() and not line.startswith("#")]
for line in open(sys.argv[1]):
    found = re.match(r"^[EWIP]: storegate[^:]*: (.*)$", line.strip())
    if found and not any(found.group(1).startswith(entry) for entry in expected):
        print(found.group(1))
PY
)
[ -z "$unexpected" ] || { cat "$work/lintian.txt"; fail "lintian tags not explained in deploy/debian/lintian-expected: $unexpected"; }
echo "package test: lintian gives only the explained tags"

dpkg -i "$package" >/dev/null
id storegate >/dev/null || fail "postinst made no storegate user"
[ -x /usr/bin/storegate ] || fail "no /usr/bin/storegate"
[ "$(stat -c %a /etc/storegate/storegate.env)" = 640 ] || fail "the secrets file is not mode 0640"
grep -q '^STOREGATE_TOKENS_SECRET=.\{40,\}' /etc/storegate/storegate.env || fail "postinst wrote no token secret"
/usr/bin/storegate version | grep -q '^storegate ' || fail "the installed binary does not run"
ldd /usr/bin/storegate | grep -q libswiftCore && fail "the installed binary needs the Swift toolchain's libraries"

# The unit's command, its user and its environment file; the socket as its socket unit makes it (spawn-fcgi in
# systemd's place: it owns the socket, group www-data, and hands it over on fd 0).
install -d -m 0755 /run/storegate
set -a; . /etc/storegate/storegate.env; set +a
runuser -u storegate -- env STOREGATE_TOKENS_SECRET="$STOREGATE_TOKENS_SECRET" \
    /usr/bin/storegate check-config --config /etc/storegate/storegate.yaml >"$work/check.txt" 2>&1 \
    || { cat "$work/check.txt"; fail "check-config refused the installed example"; }
echo "package test: $(tail -n 1 "$work/check.txt")"
# The example's Apple URLs are the real ones, which this machine cannot reach: nothing here asks Apple.
env STOREGATE_TOKENS_SECRET="$STOREGATE_TOKENS_SECRET" STOREGATE_SERVER_LISTEN= \
    spawn-fcgi -n -s /run/storegate/storegate.sock -M 0660 -U storegate -G www-data -u storegate -g storegate \
    -- /usr/bin/storegate serve --config /etc/storegate/storegate.yaml >"$work/storegate.log" 2>&1 &
gateway=$!
for _ in $(seq 100); do [ -S /run/storegate/storegate.sock ] && break; sleep 0.1; done
[ -S /run/storegate/storegate.sock ] || { cat "$work/storegate.log"; fail "the installed gateway made no socket"; }

# nginx with the installed example site, on a free loopback port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/nginx/tmp"
sed -e "s|listen 80;|listen 127.0.0.1:$port;|" /usr/share/doc/storegate/examples/nginx-site.conf >"$work/nginx/site.conf"
sed -e "s|@PREFIX@|$work/nginx|g" -e "s|@USER@|user www-data www-data;|" -e "s|@SITE@|$work/nginx/site.conf|" \
    "$top/deploy/nginx/standalone.conf.in" >"$work/nginx/nginx.conf"
cp /etc/nginx/fastcgi_params "$work/nginx/fastcgi_params"
chmod 755 "$work" "$work/nginx"
/usr/sbin/nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
nginx_started=1
catalog=""
for _ in $(seq 50); do catalog=$(curl -fs "http://127.0.0.1:$port/v1/catalog") && break; sleep 0.1; done
echo "$catalog" | grep -q '"com.example.magazine.issue42"' || fail "nginx did not answer the catalog: $catalog"
echo "package test: the catalog through nginx from the installed binary"

# The status route (open to local addresses in the example site) reads the ledger the gateway made in its
# state folder as the storegate user.
status=$(curl -fs "http://127.0.0.1:$port/v1/status") || fail "no status through nginx"
echo "$status" | grep -q '"ledger":"ok"' || fail "the ledger is not healthy: $status"
[ -f /var/lib/storegate/ledger.sqlite ] || fail "no ledger in /var/lib/storegate"
echo "package test: status through nginx, ledger in /var/lib/storegate"

dpkg --purge storegate >/dev/null
[ ! -e /usr/bin/storegate ] && [ ! -e /etc/storegate/storegate.env ] || fail "purging left the binary or the secrets"
[ -f /var/lib/storegate/ledger.sqlite ] || fail "purging removed the ledger"
echo "package test: purged (the ledger is kept)"
