#!/usr/bin/env bash
# Builds storegate_<version>_<arch>.deb from a release build of this checkout:
#   deploy/debian/build-deb.sh [OUTPUT_FOLDER, default .build/debian]
# The binary links the Swift runtime statically (the package needs no Swift on the target machine) and
# depends on the Debian libraries dpkg-shlibdeps finds (libfcgi, SQLite, libpq, mimalloc, ...). Needs
# dpkg-dev (dpkg-shlibdeps) and the build's Debian packages (README, "Prerequisites").
# Layout: /usr/bin/storegate; /etc/storegate/{storegate.yaml,catalog.yaml} (conffiles; secrets go in
# /etc/storegate/storegate.env, which postinst makes once); the systemd socket and service; Apple's root
# certificates and the example content in /usr/share/storegate; the nginx site and the account-assertion
# script as examples in /usr/share/doc/storegate/examples; a storegate system user made by postinst.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
output=$(mkdir -p "${1:-$top/.build/debian}" && cd "${1:-$top/.build/debian}" && pwd)
command -v dpkg-shlibdeps >/dev/null || { echo "needs dpkg-shlibdeps: apt-get install dpkg-dev" >&2; exit 1; }

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$top/Sources/GatewayServer/StoreGateVersion.swift")
arch=$(dpkg --print-architecture)
echo "building storegate $version (release, Swift runtime linked in)..." >&2
# A build folder of its own: linking the runtime in rebuilds every module, which would otherwise undo (and be
# undone by) the plain release build the quickstart and the benchmarks use.
scratch="$top/.build-deb"
(cd "$top" && swift build -c release --product storegate --static-swift-stdlib --scratch-path "$scratch" >&2)
bin_path="$(cd "$top" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)"
binary="$bin_path/storegate"
# What it ships defines no symbol of a library it loads: the binary's copy would take that library's place
# (docs/ARCHITECTURE.md, "What the seal is not").
(cd "$top" && swift build -c release --product storegate-build --static-swift-stdlib --scratch-path "$scratch" >&2)
"$bin_path/storegate-build" --check-binary "$binary"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
stage="$root/storegate_${version}_$arch"
install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/etc/storegate" "$stage/lib/systemd/system" \
    "$stage/usr/share/storegate/certs" "$stage/usr/share/storegate/example" \
    "$stage/usr/share/doc/storegate/examples" "$stage/usr/share/man/man1"
install -m 0755 -s "$binary" "$stage/usr/bin/storegate"

# The example config as installed: Apple's roots and the content where the package keeps them.
sed -e 's|root_certificates: \[certs/AppleRootCA-G3.cer, certs/AppleIncRootCertificate.cer\]|root_certificates: [/usr/share/storegate/certs/AppleRootCA-G3.cer, /usr/share/storegate/certs/AppleIncRootCertificate.cer]|' \
    -e 's|^  root: content  |  root: /var/lib/storegate/content|' \
    "$top/deploy/storegate.yaml" >"$stage/etc/storegate/storegate.yaml"
grep -q '/usr/share/storegate/certs/AppleRootCA-G3.cer' "$stage/etc/storegate/storegate.yaml"
grep -q 'root: /var/lib/storegate/content' "$stage/etc/storegate/storegate.yaml"
install -m 0644 "$top/deploy/catalog.yaml" "$stage/etc/storegate/catalog.yaml"
chmod 0644 "$stage/etc/storegate/storegate.yaml"
install -m 0644 "$top/deploy/systemd/storegate.service" "$top/deploy/systemd/storegate.socket" "$stage/lib/systemd/system/"
install -m 0644 "$top/deploy/certs/AppleRootCA-G3.cer" "$top/deploy/certs/AppleIncRootCertificate.cer" \
    "$stage/usr/share/storegate/certs/"
cp -r "$top/deploy/content" "$stage/usr/share/storegate/example/content"
install -m 0644 "$top/deploy/nginx/storegate.conf" "$stage/usr/share/doc/storegate/examples/nginx-site.conf"
install -m 0755 "$top/deploy/accounts/assert_account.py" "$stage/usr/share/doc/storegate/examples/assert_account.py"
install -m 0644 "$here/copyright" "$stage/usr/share/doc/storegate/copyright"
gzip -9n <"$here/changelog" >"$stage/usr/share/doc/storegate/changelog.gz"  # a native package's name
gzip -9n <"$here/storegate.1" >"$stage/usr/share/man/man1/storegate.1.gz"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage/usr/share" "$stage/etc" "$stage/lib" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/share/doc/storegate/examples/assert_account.py"

# Library dependencies as Debian computes them: dpkg-shlibdeps reads a control file from debian/.
mkdir -p "$root/shlibs/debian"
printf 'Source: storegate\n\nPackage: storegate\nArchitecture: any\n' >"$root/shlibs/debian/control"
depends=$(cd "$root/shlibs" && dpkg-shlibdeps -O -e "$stage/usr/bin/storegate" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -m 0644 "$here/conffiles" "$stage/DEBIAN/conffiles"
install -m 0755 "$here/postinst" "$here/prerm" "$here/postrm" "$stage/DEBIAN/"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|$depends|" \
    "$here/control.in" >"$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs md5sum) \
    >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"

package="$output/storegate_${version}_$arch.deb"
dpkg-deb --root-owner-group --build "$stage" "$package" >&2
echo "$package"
