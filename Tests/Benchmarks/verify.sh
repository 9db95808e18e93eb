#!/usr/bin/env bash
# Verify benchmark, in one run on one nginx (1 worker, kept FastCGI connections):
#   1. /v1/catalog (the reference),
#   2. /v1/verify, cached: one receipt over and over (the verdict cache answers; the ledger, which already
#      holds its transactions unchanged, is not written),
#   3. /v1/verify, cold: a new receipt per request (an Apple call to the instant stand-in + a new ledger row),
# each with CONNECTIONS connections, ROUNDS interleaved rounds, medians; ratios against the catalog. Then
#   4. the catalog's p99 with 16 connections, alone and while 200 verifies wait on a 2-second Apple.
# With EVENTS=1 each gateway also delivers its events to an endpoint (nginx answering 204 on 127.0.0.1:18087).
# Usage: [EVENTS=1] Tests/Benchmarks/verify.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "$@"

start_run verify-bench
build_release

# Two stand-ins (instant, and 2 s per answer) and a gateway on each, both with the deploy/ example config.
"$bin/storegate-appstore-sim" --listen 127.0.0.1:18090 --accept-any com.example.magazine.issue42 >/dev/null &
pids+=($!)
"$bin/storegate-appstore-sim" --listen 127.0.0.1:18091 --accept-any com.example.magazine.issue42 --delay-ms 2000 >/dev/null &
pids+=($!)
events_env=()
if [ "${EVENTS:-0}" = 1 ]; then
    events_env=(STOREGATE_EVENTS_ENDPOINTS_BENCH_URL=http://127.0.0.1:18087/events
        STOREGATE_EVENTS_ENDPOINTS_BENCH_SECRET=benchmark-events-secret-0123456789)
fi
for name in fast slow; do
    sim_port=$([ $name = fast ] && echo 18090 || echo 18091)
    env "${events_env[@]}" STOREGATE_SERVER_LISTEN="$run/$name.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
        STOREGATE_SERVER_WORKERS=320 STOREGATE_APPLE_MAX_CONNECTIONS=256 \
        STOREGATE_APPLE_PRODUCTION_URL="http://127.0.0.1:$sim_port/verifyReceipt" \
        STOREGATE_APPLE_SANDBOX_URL="http://127.0.0.1:$sim_port/sandbox/verifyReceipt" \
        STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="sqlite://$run/$name.sqlite" \
        "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/$name.log" &
    pids+=($!)
    wait_for_socket "$run/$name.sock"
done

mkdir -p "$run/tmp"
cat >"$run/nginx.conf" <<CONF
$(nginx_preamble)
  upstream fast { server unix:$run/fast.sock; keepalive 16; }
  upstream slow { server unix:$run/slow.sock; keepalive 16; }
  server { listen 127.0.0.1:18085;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass fast; fastcgi_keep_conn on; } }
  server { listen 127.0.0.1:18086;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass slow; fastcgi_keep_conn on; fastcgi_read_timeout 60s; } }
  server { listen 127.0.0.1:18087; location = /events { return 204; } }
}
CONF
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
pids+=($!)
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18085/v1/catalog && break; sleep 0.1; done

# wrk scripts: one fixed receipt, and a new receipt on every request.
cat >"$run/cached.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"receipt-data":"YmVuY2htYXJrLWNhY2hlZA=="}'
LUA
write_cold_verify_script "$run/cold.lua"
curl -fs -d '{"receipt-data":"YmVuY2htYXJrLWNhY2hlZA=="}' http://127.0.0.1:18085/v1/verify | grep -q '"status":0' \
    || { echo "verify does not answer 200:"; cat "$run/fast.log"; exit 1; }

compare_with_catalog http://127.0.0.1:18085/v1/catalog \
    "/v1/verify, cached verdict" http://127.0.0.1:18085/v1/verify "$run/cached.lua" \
    "/v1/verify, cold (Apple call + new ledger row)" http://127.0.0.1:18085/v1/verify "$run/cold.lua"

# 4. The catalog beside 200 verifies held by a 2-second Apple (new receipts, so nothing is shared).
connections=16
read -r idle_rps idle_p99 < <(measure http://127.0.0.1:18086/v1/catalog)
wrk -t1 -c200 -d"$((seconds + 4))s" --timeout 10s --latency -s "$run/cold.lua" http://127.0.0.1:18086/v1/verify >"$run/slow.out" 2>&1 &
slow=$!
sleep 2
read -r busy_rps busy_p99 < <(measure http://127.0.0.1:18086/v1/catalog)
wait $slow
read -r slow_rps slow_p99 < <(wrk_figures "$run/slow.out" slow-verify)
echo
printf '| %-44s | %10s | %8s |\n' "catalog, 16 connections" "req/s" "p99 ms"
printf '|%s|%s|%s|\n' "----------------------------------------------" "------------" "----------"
printf '| %-44s | %10.0f | %8.2f |\n' "alone" "$idle_rps" "$idle_p99"
printf '| %-44s | %10.0f | %8.2f |\n' "while 200 verifies wait on a 2 s Apple" "$busy_rps" "$busy_p99"
printf '| %-44s | %10.0f | %8.2f |\n' "(those verifies)" "$slow_rps" "$slow_p99"
if [ "${EVENTS:-0}" = 1 ]; then
    echo
    echo "events of the fast gateway (delivered, pending):"
    curl -fs http://127.0.0.1:18085/v1/metrics | grep -E '^storegate_events_(total|pending)' || true
fi
