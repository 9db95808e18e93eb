#!/usr/bin/env bash
# Soak benchmark: SECONDS (default 600) of mixed traffic through nginx (1 worker) into one storegate on the
# deploy/ example config (SQLite ledger, request log on, x-accel downloads) against the instant App Store
# stand-in: catalog 70%, verify 15% (half new receipts, half from a pool of 20,000), restore-sync 5% (pool),
# download 10% (a token). Reports throughput, p50/p99 per route from nginx's access log, the error count
# (anything but 200 must not happen; 499, wrk hanging up on requests in flight as it stops, is counted
# apart), and storegate's RSS and open file descriptors every 10 s, with their spread after the first two
# minutes. With SOAK_PRELOAD=N the ledger holds N purchases of other buyers (and a transaction each) before the
# load starts, so that memory is seen against a large ledger (2,000,000 make about 1 GiB). With
# SOAK_ALLOCATOR=glibc storegate runs on glibc's malloc instead of the mimalloc it links (glibc_malloc.c, preloaded).
# Usage: [SOAK_PRELOAD=N] [SOAK_ALLOCATOR=glibc] Tests/Benchmarks/soak.sh [SECONDS, default 600] [CONNECTIONS, default 32]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "${1:-600}" "${2:-32}"

start_run soak
build_release

"$bin/storegate-appstore-sim" --listen 127.0.0.1:18490 --accept-any com.example.magazine.issue42 >/dev/null &
pids+=($!)
allocator=()
if [ "${SOAK_ALLOCATOR:-mimalloc}" = glibc ]; then
    gcc -O2 -shared -fPIC -o "$run/glibc_malloc.so" "$top/Tests/Benchmarks/glibc_malloc.c" -ldl
    allocator=(LD_PRELOAD="$run/glibc_malloc.so")
fi
cp -r "$top/deploy/content" "$run/content"
chmod -R a+rX "$run/content"
STOREGATE_SERVER_LISTEN="$run/storegate.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
    STOREGATE_APPLE_PRODUCTION_URL="http://127.0.0.1:18490/verifyReceipt" \
    STOREGATE_APPLE_SANDBOX_URL="http://127.0.0.1:18490/sandbox/verifyReceipt" \
    STOREGATE_CONTENT_ROOT="$run/content" STOREGATE_TOKENS_TTL_S=3600 \
    STOREGATE_TOKENS_SECRET=soak-token-secret-0123456789abcdef STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite" \
    env "${allocator[@]}" "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/storegate.log" &
gateway=$!
pids+=($gateway)
wait_for_socket "$run/storegate.sock"

# Other buyers' purchases, written straight into the gateway's ledger file (WAL; the gateway keeps serving).
if [ "${SOAK_PRELOAD:-0}" -gt 0 ]; then
    echo "preloading the ledger with $SOAK_PRELOAD purchases..." >&2
    python3 "$top/Tests/Benchmarks/ledger_preload.py" "$run/ledger.sqlite" "$SOAK_PRELOAD" >&2
fi

mkdir -p "$run/tmp"
cat >"$run/nginx.conf" <<CONF
$(nginx_preamble)
  log_format soak '\$request_uri \$status \$request_time';
  upstream storegate { server unix:$run/storegate.sock; keepalive 16; }
  server { listen 127.0.0.1:18485;
    access_log $run/access.log soak buffer=256k;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass storegate; fastcgi_keep_conn on; }
    location /_storegate_content/ { internal; alias $run/content/; } }
}
CONF
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
pids+=($!)
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18485/v1/catalog && break; sleep 0.1; done

token=$(curl -fs http://127.0.0.1:18485/v1/verify -d '{"receipt-data":"c29hay1idXllcg=="}' \
    | sed 's/.*"download_token":"\([^"]*\)".*/\1/')
curl -fs -o /dev/null -H "Authorization: Bearer $token" http://127.0.0.1:18485/v1/download/com.example.magazine.issue42 \
    || { echo "the download token does not work"; exit 1; }

cat >"$run/mixed.lua" <<LUA
local token = "$token"
local json = {["Content-Type"] = "application/json"}
local counter = 0
local prefix = 0
setup = function(thread) thread:set("prefix", math.random(10000000, 99999999)) end
init = function() math.randomseed(os.time() + prefix) end
-- 24 digits are valid base64: new receipts carry the thread prefix and a counter, pool ones a number.
local function receipt(new)
  if new then counter = counter + 1; return string.format("%08d%016d", prefix, counter) end
  return string.format("%024d", math.random(1, 20000))
end
request = function()
  local r = math.random()
  if r < 0.70 then return wrk.format("GET", "/v1/catalog") end
  if r < 0.85 then
    return wrk.format("POST", "/v1/verify", json, '{"receipt-data":"' .. receipt(r < 0.775) .. '"}')
  end
  if r < 0.90 then return wrk.format("POST", "/v1/restore-sync", json, '{"receipt-data":"' .. receipt(false) .. '"}') end
  return wrk.format("GET", "/v1/download/com.example.magazine.issue42", {["Authorization"] = "Bearer " .. token})
end
LUA

echo "soaking: ${seconds}s, $connections connections, nginx 1 worker, one storegate (pid $gateway)" >&2
# RSS, then its anonymous part (the heap, stacks) and its file-backed part (the binary, mapped libraries, SQLite's
# shared WAL index), then open fds.
sample() {
    echo "$1 $(awk '/^(VmRSS|RssAnon|RssFile):/ {printf "%.1f ", $2 / 1024}' /proc/$gateway/status)$(ls /proc/$gateway/fd | wc -l)"
}
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$run/mixed.lua" http://127.0.0.1:18485 >"$run/wrk.out" 2>&1 &
load=$!
elapsed=0
sample 0 >"$run/samples"
while kill -0 "$load" 2>/dev/null && [ "$elapsed" -lt "$seconds" ]; do
    sleep 10
    elapsed=$((elapsed + 10))
    sample "$elapsed" >>"$run/samples"
done
wait "$load"
kill -HUP "$(cat "$run/nginx.pid")" 2>/dev/null || true  # flushes the access log buffer
sleep 1

total=$(awk '/requests in/ {print $1}' "$run/wrk.out")
rps=$(awk '/Requests\/sec/ {print $2}' "$run/wrk.out")
socket_errors=$(awk '/Socket errors/ {print}' "$run/wrk.out")
echo
echo "| route (${seconds} s, $connections connections) | requests | share | p50 ms | p99 ms | errors |"
echo "|---|---:|---:|---:|---:|---:|"
awk '{route = $1; sub(/^\/v1\/download\/.*/, "/v1/download/{id}", route); print route, $2, $3 * 1000}' "$run/access.log" \
    | sort -k1,1 -k3,3n \
    | awk -v total="$(wc -l <"$run/access.log")" '
        function flush() {
            if (n == 0) return
            printf "| %s | %d | %.1f%% | %.0f | %.0f | %d |\n", route, n, 100 * n / total, v[int(n * 0.5) + 1], v[int(n * 0.99) + 1], bad
        }
        $1 != route { flush(); route = $1; n = 0; bad = 0 }
        { v[++n] = $3; if ($2 != 200 && $2 != 499) bad++ }
        END { flush() }'
errors=$(awk '$2 != 200 && $2 != 499' "$run/access.log" | wc -l)
hung_up=$(awk '$2 == 499' "$run/access.log" | wc -l)
echo
echo "throughput: $rps req/s ($total requests); errors (not 200): $errors; hung up by wrk at the end (499): $hung_up${socket_errors:+; wrk: $socket_errors}"
echo
echo "| seconds | RSS MiB | anonymous MiB | file MiB | open fds |"
echo "|---:|---:|---:|---:|---:|"
awk '{printf "| %d | %s | %s | %s | %d |\n", $1, $2, $3, $4, $5}' "$run/samples"
awk 'NR <= 7 {base_rss = $2; base_fds = $5} {last_rss = $2; last_fds = $5; if ($2 > max_rss) max_rss = $2}
     $1 >= 120 {if (low == "" || $2 < low) low = $2; if ($2 > high) high = $2}
     END {printf "\nafter the first minute: RSS %.1f -> %.1f MiB (%+.1f%%, peak %.1f), fds %d -> %d\n",
          base_rss, last_rss, 100 * (last_rss - base_rss) / base_rss, max_rss, base_fds, last_fds
          if (low != "") printf "after the first two minutes: RSS between %.1f and %.1f MiB (spread %.1f%%)\n",
              low, high, 100 * (high - low) / low}' "$run/samples"
echo "ledger: $(du -h "$run/ledger.sqlite" | cut -f1); request log: $(du -h "$run/storegate.log" | cut -f1)"
[ "$errors" -eq 0 ] || { echo "soak FAILED: $errors errors"; awk '$2 != 200 && $2 != 499' "$run/access.log" | sort | uniq -c | sort -rn | head; exit 1; }
