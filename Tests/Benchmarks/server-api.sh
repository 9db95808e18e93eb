#!/usr/bin/env bash
# App Store Server API benchmark, in one run on one nginx (1 worker, kept FastCGI connections), one gateway with
# `apple.server_api` pointed at the instant App Store stand-in (JWT checked, answers signed with Apple's test chain):
#   1. /v1/catalog (the reference),
#   2. /v1/verify {"transaction-id"}, cached: one id over and over (the history cache answers; the ledger,
#      which already holds the transaction unchanged, is not written),
#   3. /v1/verify {"transaction-id"}, cold: a new id per request (a JWT-authenticated call for the customer's
#      history, its JWS verified, a new ledger row),
# each with CONNECTIONS connections, ROUNDS interleaved rounds, medians; ratios against the catalog.
# Usage: Tests/Benchmarks/server-api.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "$@"
command -v openssl >/dev/null || { echo "needs openssl (apt-get install openssl)"; exit 1; }
chain="$top/Tests/Support/SignedTestData/Vectors/apple-app-store-server-library-java"

start_run server-api-bench
build_release

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$run/key.p8" 2>/dev/null
openssl pkey -in "$run/key.p8" -pubout -out "$run/key.pub.pem"
"$bin/storegate-appstore-sim" --listen 127.0.0.1:18390 --accept-any com.example.magazine.issue42 \
    --api-public-key "$run/key.pub.pem" --api-issuer bench-issuer --api-key-id BENCHKEY01 \
    --api-bundle-id com.example.magazine --signing-key "$chain/testLeaf.key" \
    --signing-chain "$chain/testLeaf.pem,$chain/testIntermediate.pem,$chain/testCA.pem" >/dev/null &
pids+=($!)
STOREGATE_SERVER_LISTEN="$run/gateway.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
    STOREGATE_SERVER_WORKERS=320 STOREGATE_APPLE_ROOT_CERTIFICATES="[$chain/testCA.pem]" \
    STOREGATE_APPLE_SERVER_API_ISSUER_ID=bench-issuer STOREGATE_APPLE_SERVER_API_KEY_ID=BENCHKEY01 \
    STOREGATE_APPLE_SERVER_API_KEY_FILE="$run/key.p8" STOREGATE_APPLE_SERVER_API_CALLS_PER_HOUR=1000000 \
    STOREGATE_APPLE_SERVER_API_PRODUCTION_URL="http://127.0.0.1:18390" \
    STOREGATE_APPLE_SERVER_API_SANDBOX_URL="http://127.0.0.1:18390/sandbox" \
    STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite" \
    "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/gateway.log" &
pids+=($!)
wait_for_socket "$run/gateway.sock"

start_nginx_for_gateway 18385 "$run/gateway.sock"

cat >"$run/cached.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"transaction-id":"9000000000000001"}'
LUA
# A new 19-digit id on every request: a new customer to the stand-in.
cat >"$run/cold.lua" <<'LUA'
local counter = 0
local prefix = 0
setup = function(thread) thread:set("prefix", math.random(100000, 999999)) end
request = function()
  counter = counter + 1
  local body = string.format('{"transaction-id":"8%06d%012d"}', prefix, counter)
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end
LUA
curl -fs -d '{"transaction-id":"9000000000000001"}' http://127.0.0.1:18385/v1/verify | grep -q '"status":0' \
    || { echo "verify does not answer 200:"; cat "$run/gateway.log"; exit 1; }

compare_with_catalog http://127.0.0.1:18385/v1/catalog \
    "/v1/verify transaction-id, cached history" http://127.0.0.1:18385/v1/verify "$run/cached.lua" \
    "/v1/verify transaction-id, cold (Server API)" http://127.0.0.1:18385/v1/verify "$run/cold.lua"
