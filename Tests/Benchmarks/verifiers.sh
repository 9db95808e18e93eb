#!/usr/bin/env bash
# Verification benchmark, in one run, one gateway (apple.verifier: local-then-online) behind one nginx (1 worker),
# POST /v1/verify with the verdict cache off and the ledger written every time, for three kinds of proof:
#   1. a StoreKit 2 signed transaction (JWS minted from Apple's test chain; verified here, chain cached),
#   2. a real Apple-signed app receipt (PKCS#7, 9 transactions; verified here),
#   3. receipts Apple must judge, a new one per request (the instant App Store stand-in over HTTP: the online
#      path, as verify.sh's cold verifies).
# Reports requests per second, p99, and verifications per second per core of the gateway (requests divided by
# the gateway's CPU seconds in that run, from /proc), with ratios against the online path.
# Usage: Tests/Benchmarks/verifiers.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "$@"
vectors="$top/Tests/Support/SignedTestData/Vectors"

start_run verifiers-bench
build_release

"$bin/storegate-appstore-sim" --listen 127.0.0.1:18290 --accept-any com.example.magazine.issue42 >/dev/null &
pids+=($!)
STOREGATE_SERVER_LISTEN="$run/gateway.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
    STOREGATE_SERVER_WORKERS=128 STOREGATE_APPLE_CACHE_TTL_S=0 STOREGATE_APPLE_VERIFIER=local-then-online \
    STOREGATE_APPLE_PRODUCTION_URL="http://127.0.0.1:18290/verifyReceipt" \
    STOREGATE_APPLE_SANDBOX_URL="http://127.0.0.1:18290/sandbox/verifyReceipt" \
    STOREGATE_APPLE_ROOT_CERTIFICATES="[$vectors/apple-app-store-server-library-swift/testCA.der, $vectors/RevenueCat-purchases-ios/AppleRootCA.der]" \
    STOREGATE_APPLE_BUNDLE_IDS="[com.example.magazine, com.revenuecat.sampleapp]" \
    STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite" \
    "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/gateway.log" &
gateway=$!
pids+=("$gateway")
wait_for_socket "$run/gateway.sock"

start_nginx_for_gateway 18285 "$run/gateway.sock"

# The three request bodies: a JWS minted with the test leaf's key, the real receipt, a stand-in receipt.
python3 - "$vectors" "$run" <<'PY'
import base64, json, sys, time
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
vectors, run = sys.argv[1], sys.argv[2]
java = f"{vectors}/apple-app-store-server-library-java"
b64url = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
chain = [base64.b64encode(x509.load_pem_x509_certificate(open(f"{java}/{name}.pem", "rb").read())
         .public_bytes(serialization.Encoding.DER)).decode() for name in ("testLeaf", "testIntermediate", "testCA")]
now = int(time.time() * 1000)
payload = {"transactionId": "880001", "originalTransactionId": "880001", "productId": "com.example.magazine.issue42",
           "bundleId": "com.example.magazine", "environment": "Sandbox", "signedDate": now, "purchaseDate": now,
           "type": "Non-Consumable", "quantity": 1}
signing_input = b64url(json.dumps({"alg": "ES256", "x5c": chain}).encode()) + "." + b64url(json.dumps(payload).encode())
key = serialization.load_pem_private_key(open(f"{java}/testLeaf.key", "rb").read(), password=None)
r, s = utils.decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
jws = signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
receipt = open(f"{vectors}/RevenueCat-purchases-ios/base64encoded_sandboxReceipt.txt").read().strip()
bodies = {"jws": {"signed-transaction": jws}, "receipt": {"receipt-data": receipt},
          "check": {"receipt-data": base64.b64encode(b"bench-online-receipt").decode()}}
for name, body in bodies.items():
    with open(f"{run}/{name}.lua", "w") as lua:
        lua.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                  f"wrk.body = {json.dumps(json.dumps(body))}\n")
PY
write_cold_verify_script "$run/online.lua"
for kind in jws receipt check; do
    body=$(sed -n 's/^wrk.body = "\(.*\)"$/\1/p' "$run/$kind.lua" | sed 's/\\"/"/g')
    curl -fs -d "$body" http://127.0.0.1:18285/v1/verify | grep -q '"status":0' \
        || { echo "$kind does not verify:"; curl -s -d "$body" http://127.0.0.1:18285/v1/verify; cat "$run/gateway.log"; exit 1; }
done

cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$gateway/stat"; }
echo "measuring: $rounds rounds of ${seconds}s per kind, $connections connections, nginx 1 worker" >&2
for round in $(seq "$rounds"); do
    for kind in jws receipt online; do
        before=$(cpu_seconds)
        read -r rps p99 < <(measure http://127.0.0.1:18285/v1/verify -s "$run/$kind.lua")
        after=$(cpu_seconds)
        echo "$rps $p99 $(awk -v r="$rps" -v s="$seconds" -v c="$(awk -v a="$after" -v b="$before" 'BEGIN {print a - b}')" \
            'BEGIN {printf "%.0f", r * s / c}')" >>"$run/samples.$kind"
    done
done
read -r online_rps _ online_core < <(median "$run/samples.online")
printf '| %-46s | %10s | %8s | %14s | %6s |\n' "/v1/verify (median of $rounds)" "req/s" "p99 ms" "per gateway core" "ratio"
printf '|%s|%s|%s|%s|%s|\n' "------------------------------------------------" "------------" "----------" "------------------" "--------"
for kind in jws receipt online; do
    read -r rps p99 core < <(median "$run/samples.$kind")
    label=$(case $kind in jws) echo "StoreKit 2 signed transaction (local)";; receipt) echo "app receipt, 9 transactions (local)";; online) echo "app receipt via the stand-in (online)";; esac)
    printf '| %-46s | %10.0f | %8.2f | %16.0f | %6.2f |\n' "$label" "$rps" "$p99" "$core" "$(awk -v a="$core" -v b="$online_core" 'BEGIN {print a / b}')"
done
