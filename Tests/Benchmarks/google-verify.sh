#!/usr/bin/env bash
# Google Play verify benchmark, in one run on one nginx (1 worker, kept FastCGI connections):
#   1. /v1/catalog (the reference),
#   2. /v1/verify with one purchase token over and over (the answer cache answers; the ledger holds it unchanged),
#   3. /v1/verify, cold: a new purchase token per request (a productsv2 call to the instant stand-in, with the
#      service account's access token reused, and a new ledger row),
# each with CONNECTIONS connections, ROUNDS interleaved rounds, medians; ratios against the catalog.
# Usage: Tests/Benchmarks/google-verify.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "$@"

start_run google-verify-bench
build_release

# The stand-in, taking the service account's logins and making any unknown token a purchase of issue 42.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$run/google-key.pem" 2>/dev/null
openssl pkey -in "$run/google-key.pem" -pubout -out "$run/google-key.pub.pem"
email=benchmark@storegate-bench.iam.gserviceaccount.com
printf '{"type": "service_account", "private_key_id": "bench1", "client_email": "%s", "private_key": "%s"}\n' \
    "$email" "$(awk '{printf "%s\\n", $0}' "$run/google-key.pem")" >"$run/google-service-account.json"
"$bin/storegate-appstore-sim" --listen 127.0.0.1:18092 --accept-any com.example.magazine.issue42 \
    --google-public-key "$run/google-key.pub.pem" --google-client-email "$email" >/dev/null &
pids+=($!)
STOREGATE_SERVER_LISTEN="$run/fast.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
    STOREGATE_SERVER_WORKERS=320 STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 \
    STOREGATE_LEDGER_URL="sqlite://$run/fast.sqlite" STOREGATE_GOOGLE_PACKAGE_NAMES="[com.example.magazine.android]" \
    STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY_FILE="$run/google-service-account.json" \
    STOREGATE_GOOGLE_API_URL="http://127.0.0.1:18092" STOREGATE_GOOGLE_TOKEN_URL="http://127.0.0.1:18092/token" \
    STOREGATE_GOOGLE_CALLS_PER_MINUTE=1000000 \
    "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/fast.log" &
pids+=($!)
wait_for_socket "$run/fast.sock"

start_nginx_for_gateway 18087 "$run/fast.sock"

cat >"$run/cached.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"store": "google-play", "purchase-token": "benchmark-cached-token"}'
LUA
write_cold_verify_script "$run/cold.lua" '{"store": "google-play", "purchase-token": "bench-%08d-%08d-%08d"}'
curl -fs -d '{"store": "google-play", "purchase-token": "benchmark-cached-token"}' http://127.0.0.1:18087/v1/verify \
    | grep -q '"status":0' || { echo "verify does not answer 200:"; cat "$run/fast.log"; exit 1; }

compare_with_catalog http://127.0.0.1:18087/v1/catalog \
    "/v1/verify, Google, cached answer" http://127.0.0.1:18087/v1/verify "$run/cached.lua" \
    "/v1/verify, Google, cold (productsv2 + new ledger row)" http://127.0.0.1:18087/v1/verify "$run/cold.lua"
echo "calls Google's stand-in answered: $(curl -s http://127.0.0.1:18092/_sim/google/calls)"
