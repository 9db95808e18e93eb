#!/usr/bin/env bash
# Runs StoreGate behind nginx on 127.0.0.1:8080 with the example config in deploy/, verifying receipts
# against the App Store stand-in on 127.0.0.1:8090 (fixtures: deploy/appstore-sim/receipts.yaml).
#   deploy/quickstart.sh        install what is missing (Debian), build, start nginx + storegate + stand-in
#   deploy/quickstart.sh stop   stop them
# Everything it writes stays in .run/ at the top of the checkout; the system nginx is left alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
run="$top/.run"
port="${STOREGATE_QUICKSTART_PORT:-8080}"
sim_port="${STOREGATE_QUICKSTART_SIM_PORT:-8090}"

stop() {
    local name pid
    for name in nginx storegate appstore-sim; do
        [ -f "$run/$name.pid" ] || continue
        pid=$(cat "$run/$name.pid")
        if kill -TERM "$pid" 2>/dev/null; then
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
        rm -f "$run/$name.pid"
    done
}

if [ "${1:-}" = stop ]; then stop; echo "stopped"; exit 0; fi

# Swift is not a Debian package: say where it comes from before anything is installed or built.
if ! command -v swift >/dev/null; then
    cat >&2 <<'MSG'
StoreGate is built with Swift 6.2 or later, and `swift` is not on the PATH.
Install it from https://www.swift.org/install/linux/ (for Debian 12: the swiftly installer, or the tarball
unpacked under /opt/swift with /opt/swift/usr/bin on the PATH), then run deploy/quickstart.sh again.
MSG
    exit 1
fi
swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1)
case "$swift_version" in
    "" | [0-5].* | 6.[01]) echo "StoreGate needs Swift 6.2 or later; this machine has ${swift_version:-an unknown version} ($(command -v swift))." >&2; exit 1 ;;
esac

# A port that is taken fails nginx or the stand-in after the build; find out first.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ ! -f "$run/nginx.pid" ] && port_in_use "$port"; then
    echo "127.0.0.1:$port is in use by another program; choose another port: STOREGATE_QUICKSTART_PORT=$((port + 1)) deploy/quickstart.sh" >&2
    exit 1
fi
if [ ! -f "$run/appstore-sim.pid" ] && port_in_use "$sim_port"; then
    echo "127.0.0.1:$sim_port (the App Store stand-in) is in use; choose another: STOREGATE_QUICKSTART_SIM_PORT=$((sim_port + 1)) deploy/quickstart.sh" >&2
    exit 1
fi

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
pkg-config --exists fcgi 2>/dev/null || missing+=(libfcgi-dev)
[ -e /usr/lib/x86_64-linux-gnu/libmimalloc.so ] || [ -e /usr/lib/aarch64-linux-gnu/libmimalloc.so ] || missing+=(libmimalloc-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v openssl >/dev/null || missing+=(openssl)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "building storegate and the App Store stand-in (release; the first build takes 5 to 12 minutes on two cores)..."
(cd "$top" && swift build -c release --product storegate 2>&1 | tail -n 1)
(cd "$top" && swift build -c release --product storegate-appstore-sim 2>&1 | tail -n 1)
bin_dir="$(cd "$top" && swift build -c release --show-bin-path)"
bin="$bin_dir/storegate"

stop
# From here on, a failed start stops whatever it started.
failed() {
    echo "the quickstart did not finish; stopping what it started (logs: .run/storegate.log, .run/appstore-sim.log, .run/nginx/error.log)" >&2
    stop
}
trap failed ERR
mkdir -p "$run/nginx/tmp"
chmod 755 "$run" "$run/nginx"
user_line="" group=""
if [ "$(id -u)" -eq 0 ]; then user_line="user www-data www-data;" group="www-data"; fi
cp /etc/nginx/fastcgi_params "$run/nginx/fastcgi_params"
sed -e "s|unix:/run/storegate/storegate.sock|unix:$run/storegate.sock|" \
    -e "s|/var/lib/storegate/content/|$here/content/|" \
    -e "s|listen 80;|listen 127.0.0.1:$port;|" \
    "$here/nginx/storegate.conf" >"$run/nginx/site.conf"
sed -e "s|@PREFIX@|$run/nginx|g" -e "s|@USER@|$user_line|" -e "s|@SITE@|$run/nginx/site.conf|" \
    "$here/nginx/standalone.conf.in" >"$run/nginx/nginx.conf"

# The App Store Server API side of the stand-in: it trusts tokens signed with a demo in-app purchase key made
# here once (production: the .p8 from App Store Connect) and signs its answers with Apple's published test
# chain (never trust it in production).
[ -s "$run/api-key.p8" ] || (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$run/api-key.p8")
openssl pkey -in "$run/api-key.p8" -pubout -out "$run/api-key.pub.pem"
test_chain="$top/Tests/Support/SignedTestData/Vectors/apple-app-store-server-library-java"
# A Google Cloud service account's key, as the JSON file Google gives (its key made here; the stand-in knows it).
google_email=quickstart@storegate-demo.iam.gserviceaccount.com
[ -s "$run/google-key.pem" ] || (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$run/google-key.pem")
openssl pkey -in "$run/google-key.pem" -pubout -out "$run/google-key.pub.pem"
(umask 077 && printf '{"type": "service_account", "project_id": "storegate-demo", "private_key_id": "quickstart1", "client_email": "%s", "private_key": "%s", "token_uri": "https://oauth2.googleapis.com/token"}\n' \
    "$google_email" "$(awk '{printf "%s\\n", $0}' "$run/google-key.pem")" >"$run/google-service-account.json")
nohup "$bin_dir/storegate-appstore-sim" --listen "127.0.0.1:$sim_port" --fixtures "$here/appstore-sim/receipts.yaml" \
    --api-public-key "$run/api-key.pub.pem" --api-issuer quickstart-issuer --api-key-id QUICKSTART1 \
    --api-bundle-id com.example.magazine --api-app-apple-id 1234567890 --signing-key "$test_chain/testLeaf.key" \
    --signing-chain "$test_chain/testLeaf.pem,$test_chain/testIntermediate.pem,$test_chain/testCA.pem" \
    --google-public-key "$run/google-key.pub.pem" --google-client-email "$google_email" \
    >"$run/appstore-sim.log" 2>&1 &
echo $! >"$run/appstore-sim.pid"

# The example config, pointed at the stand-in and a ledger in .run/ (environment overrides, as in production).
export STOREGATE_SERVER_LISTEN="$run/storegate.sock" STOREGATE_SERVER_SOCKET_GROUP="$group"
export STOREGATE_APPLE_PRODUCTION_URL="http://127.0.0.1:$sim_port/verifyReceipt"
export STOREGATE_APPLE_SANDBOX_URL="http://127.0.0.1:$sim_port/sandbox/verifyReceipt"
export STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite"
# Receipts are checked here first (an Xcode StoreKit-testing receipt, signed by the demo StoreKit certificate,
# verifies without any App Store), and the stand-in answers the rest. Never trust a StoreKit certificate in
# production.
export STOREGATE_APPLE_VERIFIER=local-then-online
export STOREGATE_APPLE_ROOT_CERTIFICATES="[certs/AppleRootCA-G3.cer, certs/AppleIncRootCertificate.cer, appstore-sim/StoreKitTestCertificate.pem, $test_chain/testCA.pem]"
export STOREGATE_APPLE_ENVIRONMENTS="[Production, Sandbox, Xcode]"
export STOREGATE_APPLE_BUNDLE_IDS="[com.example.magazine, com.example.naturelab.backyardbirds.example]"
# StoreKit 2 apps that send only a transaction id: the gateway asks the stand-in's App Store Server API.
export STOREGATE_APPLE_SERVER_API_ISSUER_ID=quickstart-issuer STOREGATE_APPLE_SERVER_API_KEY_ID=QUICKSTART1
export STOREGATE_APPLE_SERVER_API_BUNDLE_ID=com.example.magazine
export STOREGATE_APPLE_SERVER_API_KEY_FILE="$run/api-key.p8"
export STOREGATE_APPLE_SERVER_API_PRODUCTION_URL="http://127.0.0.1:$sim_port"
export STOREGATE_APPLE_SERVER_API_SANDBOX_URL="http://127.0.0.1:$sim_port/sandbox"
# Google Play, through the same stand-in (the key from the file; in production, the file Google Cloud gives).
export STOREGATE_GOOGLE_PACKAGE_NAMES="[com.example.magazine.android]"
export STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY_FILE="$run/google-service-account.json"
export STOREGATE_GOOGLE_API_URL="http://127.0.0.1:$sim_port" STOREGATE_GOOGLE_TOKEN_URL="http://127.0.0.1:$sim_port/token"
# The download-token key: made once per checkout, kept in .run/ (production: an EnvironmentFile, mode 0600).
[ -s "$run/token-secret" ] || (umask 077 && head -c 32 /dev/urandom | base64 >"$run/token-secret")
STOREGATE_TOKENS_SECRET="$(cat "$run/token-secret")"
export STOREGATE_TOKENS_SECRET
# App accounts: the app's backend signs who is asking with this key (deploy/accounts/assert_account.py).
[ -s "$run/account-secret" ] || (umask 077 && head -c 32 /dev/urandom | base64 >"$run/account-secret")
STOREGATE_ACCOUNTS_SECRET="$(cat "$run/account-secret")"
export STOREGATE_ACCOUNTS_SECRET STOREGATE_ACCOUNTS_ASSERTED_BY="[signed]" STOREGATE_ACCOUNTS_RESTORE_POLICY=transfer
# The example's routes, and /v1/entitlements, which answers only with the accounts set up above.
export STOREGATE_ROUTES="[{path: /v1/catalog, handler: catalog}, {path: /v1/verify, handler: verify},
  {path: /v1/restore-sync, handler: restore-sync}, {path: /v1/download, handler: download},
  {path: /v1/notifications/apple, handler: notifications}, {path: /v1/status, handler: status},
  {path: /v1/metrics, handler: metrics}, {path: /v1/support, handler: support},
  {path: /v1/entitlements, handler: entitlements}]"
"$bin" check-config --config "$here/storegate.yaml" >/dev/null || { "$bin" check-config --config "$here/storegate.yaml"; false; }
nohup "$bin" serve --config "$here/storegate.yaml" >"$run/storegate.log" 2>&1 &
echo $! >"$run/storegate.pid"
for _ in $(seq 100); do [ -S "$run/storegate.sock" ] && break; sleep 0.1; done
[ -S "$run/storegate.sock" ] || { echo "storegate did not start:"; cat "$run/storegate.log"; false; }
if ! /usr/sbin/nginx -p "$run/nginx" -c "$run/nginx/nginx.conf" 2>"$run/nginx/start.log"; then
    cat "$run/nginx/start.log" >&2
    grep -q "Address already in use" "$run/nginx/start.log" \
        && echo "127.0.0.1:$port is taken; choose another port: STOREGATE_QUICKSTART_PORT=$((port + 1)) deploy/quickstart.sh" >&2
    false
fi
cp "$run/nginx/nginx.pid" "$run/nginx.pid"
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/v1/catalog" >/dev/null && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$port/v1/catalog" || { echo "nginx does not answer on 127.0.0.1:$port" >&2; false; }
trap - ERR

cat <<MSG
StoreGate is running behind nginx on http://127.0.0.1:$port (logs: .run/storegate.log, .run/nginx/error.log),
verifying receipts against the App Store stand-in on 127.0.0.1:$sim_port (ledger: .run/ledger.sqlite).
The whole flow, against the stand-in's demo receipts (deploy/appstore-sim/receipts.yaml):
  curl -s http://127.0.0.1:$port/v1/catalog
  curl -s http://127.0.0.1:$port/v1/verify -d '{"receipt-data": "$(printf demo-buyer | base64)"}'
  token=\$(curl -s http://127.0.0.1:$port/v1/verify -d '{"receipt-data": "$(printf demo-buyer | base64)"}' | sed 's/.*"download_token":"\([^"]*\)".*/\1/')
  curl -s -H "Authorization: Bearer \$token" http://127.0.0.1:$port/v1/download/com.example.magazine.issue42 -o issue42.pdf
  curl -s http://127.0.0.1:$port/v1/restore-sync -d '{"receipt-data": "$(printf demo-new-device | base64)"}'   # "another device"
  curl -s http://127.0.0.1:$port/v1/download/com.example.magazine.issue42 -d '{"receipt-data": "$(printf demo-new-device | base64)"}' -o issue42.pdf
  curl -s http://127.0.0.1:$port/v1/verify -d '{"receipt-data": "$(printf demo-reviewer | base64)"}'     # App Review (sandbox)
  curl -s http://127.0.0.1:$port/v1/verify -d '{"receipt-data": "$(printf demo-refunded | base64)"}'     # refunded: no entitlement
  curl -s http://127.0.0.1:$port/v1/verify -d '{"receipt-data": "$(printf demo-other-app | base64)"}'    # 422 bundle_mismatch
  curl -s http://127.0.0.1:$port/v1/verify -d "{\"receipt-data\": \"\$(cat deploy/appstore-sim/xcode-app-receipt.b64)\"}"   # Xcode receipt, verified locally
StoreKit 2 (the app sends a transaction id; the gateway asks the App Store Server API for the customer's history):
  curl -s http://127.0.0.1:$port/v1/verify -d '{"transaction-id": "5000000000000001"}'        # issue 42 and the monthly subscription
  curl -s http://127.0.0.1:$port/v1/restore-sync -d '{"transaction-id": "5000000000000002"}'  # one id brings the whole history
  curl -s http://127.0.0.1:$port/v1/download/com.example.magazine.issue42 -d '{"transaction-id": "5000000000000002"}' -o issue42.pdf
  curl -s http://127.0.0.1:$port/v1/verify -d '{"transaction-id": "5000000000000099"}'        # 422 transaction_not_found
  curl -s http://127.0.0.1:$port/v1/verify -d '{"transaction-id": "5000000000000003"}'        # a sandbox purchase: production 404, then the sandbox
  curl -s http://127.0.0.1:$sim_port/_sim/api/calls                                             # what the stand-in was asked (JWT checked)
Android (Google Play through the same stand-in; the service account's login checked, RS256):
  curl -s http://127.0.0.1:$port/v1/verify -d '{"store": "google-play", "purchase-token": "demo-android-buyer"}'
  curl -s http://127.0.0.1:$port/v1/download/com.example.magazine.issue42 -d '{"store": "google-play", "purchase-token": "demo-android-buyer"}' -o issue42.pdf
  curl -s http://127.0.0.1:$port/v1/verify -d '{"store": "google-play", "purchase-token": "demo-android-subscriber", "product-id": "com.example.magazine.monthly"}'
  curl -s http://127.0.0.1:$port/v1/verify -d '{"store": "google-play", "purchase-token": "demo-android-pending"}'   # 402 purchase_pending
  curl -s http://127.0.0.1:$port/v1/verify -d '{"store": "google-play", "purchase-token": "demo-android-tester"}'    # a license tester: Sandbox
  curl -s http://127.0.0.1:$sim_port/_sim/google/calls                                          # what Google's stand-in was asked
App accounts (the app's backend signs who is asking; restore_policy transfer):
  export STOREGATE_ACCOUNTS_SECRET=\$(cat .run/account-secret)
  alice=\$(deploy/accounts/assert_account.py alice) bob=\$(deploy/accounts/assert_account.py bob)
  curl -s http://127.0.0.1:$port/v1/verify -H "X-StoreGate-Account: \$alice" -d '{"receipt-data": "$(printf demo-buyer | base64)"}'             # bound to alice
  curl -s http://127.0.0.1:$port/v1/restore-sync -H "X-StoreGate-Account: \$bob" -d '{"receipt-data": "$(printf demo-new-device | base64)"}'  # moves to bob
  curl -s http://127.0.0.1:$port/v1/entitlements -H "X-StoreGate-Account: \$alice"   # nothing now
  curl -s http://127.0.0.1:$port/v1/entitlements -H "X-StoreGate-Account: \$bob"     # issue 42 and the subscription, with tokens, no receipt
The support desk (open it in a browser on this machine), after the flow above:
  http://127.0.0.1:$port/v1/support?q=5000000000000001     # a StoreKit 2 purchase
  http://127.0.0.1:$port/v1/support?q=MQ1DEMOBUY1          # demo-buyer's order, from the receipt email
  http://127.0.0.1:$port/v1/support?q=1000000000000042     # issue 42: bought, recorded, restored, downloaded
The ledger, conditional requests, status and metrics:
  sqlite3 .run/ledger.sqlite 'SELECT environment, product_id, first_source FROM purchases'  # (apt-get install sqlite3)
  curl -si http://127.0.0.1:$port/v1/catalog -H 'If-None-Match: "$(curl -s http://127.0.0.1:$port/v1/catalog | sed 's/.*"version":"\([0-9a-f]*\)".*/\1/')"'
  curl -s http://127.0.0.1:$port/v1/status
  curl -s http://127.0.0.1:$port/v1/metrics | grep -E "^storegate_(requests|apple_calls|apple_api_calls)_total"   # what Prometheus scrapes
Reload after editing deploy/*.yaml:  kill -HUP \$(cat .run/storegate.pid)
Stop:                                deploy/quickstart.sh stop
MSG
