#!/usr/bin/env bash
# Download benchmark, in one run on one nginx (1 worker):
#   1. a 100 MiB file: nginx serving it statically (the reference), through storegate with X-Accel-Redirect
#      (target >= 0.95x static), and streamed by storegate itself (delivery: stream);
#   2. token downloads per second of a 4 KiB file (X-Accel), and of the same file kept in S3 (delivery:
#      s3-presigned: a 302 to a presigned URL; nothing is fetched, so no storage runs), versus /v1/catalog;
#   3. storegate's peak RSS while streaming ten 100 MiB downloads at once.
# With EVENTS=1 each gateway also delivers its events (a content.delivered per download) to an endpoint (nginx
# answering 204 on 127.0.0.1:18387).
# Usage: [EVENTS=1] Tests/Benchmarks/download.sh [SECONDS per run, default 10] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
seconds="${1:-10}"
rounds="${2:-3}"
source "$top/Tests/Benchmarks/common.sh"
for tool in wrk curl; do command -v "$tool" >/dev/null || { echo "needs $tool"; exit 1; }; done

start_run download-bench
build_release

mkdir -p "$run/content" "$run/tmp"
head -c $((100 << 20)) /dev/urandom >"$run/content/big.bin"
head -c 4096 /dev/urandom >"$run/content/small.bin"
chmod -R a+rX "$run/content"
cat >"$run/catalog.yaml" <<YAML
products:
  - { id: bench.big, type: non-consumable, title: Big, content: big.bin, content_type: application/octet-stream }
  - { id: bench.small, type: non-consumable, title: Small, content: small.bin, content_type: application/octet-stream }
YAML
cat >"$run/catalog-remote.yaml" <<YAML
products:
  - { id: bench.big, type: non-consumable, title: Big, object: big.bin, size: $((100 << 20)), sha256: $(sha256sum <"$run/content/big.bin" | cut -d' ' -f1) }
  - { id: bench.small, type: non-consumable, title: Small, object: small.bin, size: 4096, sha256: $(sha256sum <"$run/content/small.bin" | cut -d' ' -f1) }
YAML
cat >"$run/receipts.yaml" <<YAML
receipts:
  - receipt: bench-buyer
    transactions:
      - { product_id: bench.big, transaction_id: "1" }
      - { product_id: bench.small, transaction_id: "2" }
YAML
cat >"$run/storegate.yaml" <<YAML
server: { workers: 128, socket_mode: "0666" }
routes:
  - { path: /v1/catalog, handler: catalog }
  - { path: /v1/verify, handler: verify }
  - { path: /v1/download, handler: download }
  - { path: /v1/metrics, handler: metrics }
apple:
  bundle_ids: [com.example.magazine]
  production_url: http://127.0.0.1:18390/verifyReceipt
  sandbox_url: http://127.0.0.1:18390/sandbox/verifyReceipt
catalog: { file: catalog.yaml }
content: { root: content, x_accel_location: /_storegate_content/ }
tokens: { secret: benchmark-token-secret-0123456789 }
YAML
"$bin/storegate-appstore-sim" --listen 127.0.0.1:18390 --fixtures "$run/receipts.yaml" >/dev/null &
pids+=($!)
events_env=()
if [ "${EVENTS:-0}" = 1 ]; then
    events_env=(STOREGATE_EVENTS_ENDPOINTS_BENCH_URL=http://127.0.0.1:18387/events
        STOREGATE_EVENTS_ENDPOINTS_BENCH_SECRET=benchmark-events-secret-0123456789)
fi
s3_env=(STOREGATE_CATALOG_FILE="$run/catalog-remote.yaml" STOREGATE_CONTENT_S3_BUCKET=bench-content
    STOREGATE_CONTENT_S3_REGION=eu-west-1 STOREGATE_CONTENT_S3_ENDPOINT=http://127.0.0.1:18388
    STOREGATE_CONTENT_S3_ADDRESSING=path STOREGATE_CONTENT_S3_ACCESS_KEY_ID=AKIABENCHMARK
    STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY=benchmark/secret/access/key)
for mode in x-accel stream s3-presigned; do
    mode_env=()
    [ "$mode" = s3-presigned ] && mode_env=("${s3_env[@]}")
    env "${events_env[@]}" "${mode_env[@]}" STOREGATE_SERVER_LISTEN="$run/$mode.sock" STOREGATE_CONTENT_DELIVERY=$mode STOREGATE_LEDGER_URL="sqlite:$mode.sqlite" \
        "$bin/storegate" serve --config "$run/storegate.yaml" 2>"$run/$mode.log" &
    pids+=($!)
    echo $! >"$run/$mode.pid"
    wait_for_socket "$run/$mode.sock"
done

cat >"$run/nginx.conf" <<CONF
user nobody nogroup; daemon off; worker_processes 1; pid $run/nginx.pid; error_log $run/nginx.log;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; client_body_temp_path $run/tmp; fastcgi_temp_path $run/tmp;
  proxy_temp_path $run/tmp; uwsgi_temp_path $run/tmp; scgi_temp_path $run/tmp;
  upstream accel { server unix:$run/x-accel.sock; keepalive 16; }
  upstream stream { server unix:$run/stream.sock; keepalive 16; }
  server { listen 127.0.0.1:18385;
    location /static/ { alias $run/content/; }
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass accel; fastcgi_keep_conn on; }
    location /_storegate_content/ { internal; alias $run/content/; } }
  server { listen 127.0.0.1:18386;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass stream; fastcgi_keep_conn on; fastcgi_buffering off; } }
  upstream presigned { server unix:$run/s3-presigned.sock; keepalive 16; }
  server { listen 127.0.0.1:18384;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass presigned; fastcgi_keep_conn on; } }
  server { listen 127.0.0.1:18387; location = /events { return 204; } }
}
CONF
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
pids+=($!)
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18385/v1/catalog && break; sleep 0.1; done

receipt=$(printf bench-buyer | base64)
token() { curl -fs http://127.0.0.1:$1/v1/verify -d "{\"receipt-data\":\"$receipt\"}" | sed "s/.*\"download_token\":\"\([^\"]*\)\",\"download_token_expires\":\"[^\"]*\",\"expires_date\":null,\"original_transaction_id\":\"[0-9]*\",\"product_id\":\"$2\".*/\1/"; }
big_token=$(token 18385 bench.big)
small_token=$(token 18385 bench.small)
stream_token=$(token 18386 bench.big)
presigned_token=$(token 18384 bench.small)
answer=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -H "Authorization: Bearer $presigned_token" http://127.0.0.1:18384/v1/download/bench.small)
case "$answer" in
"302 http://127.0.0.1:18388/bench-content/small.bin?"*X-Amz-Signature=*) ;;
*) echo "the presigned gateway answered: $answer"; exit 1 ;;
esac
want=$(sha256sum <"$run/content/big.bin" | cut -d' ' -f1)
for url in "18385/static/big.bin" "18385/v1/download/bench.big" "18386/v1/download/bench.big"; do
    got=$(curl -fs -H "Authorization: Bearer $big_token" "http://127.0.0.1:$url" | sha256sum | cut -d' ' -f1)
    [ "$got" = "$want" ] || { echo "wrong bytes from $url"; exit 1; }
done

# MiB/s of wrk's "Transfer/sec" for one URL (4 connections).
throughput() {
    wrk -t1 -c4 -d"${seconds}s" -H "Authorization: Bearer $2" "$1" >"$run/wrk.out" 2>&1
    grep -q "Non-2xx" "$run/wrk.out" && { echo "errors in $1" >&2; cat "$run/wrk.out" >&2; }
    awk '/Transfer\/sec/ {v=$2; u=v; gsub(/[0-9.]/,"",u); sub(/[A-Za-z]+$/,"",v);
        f = (u=="GB") ? 1024 : (u=="MB") ? 1 : (u=="KB") ? 1/1024 : 1/1048576; printf "%.0f\n", v*f}' "$run/wrk.out"
}
echo "measuring: $rounds rounds of ${seconds}s per target" >&2
for round in $(seq "$rounds"); do
    throughput http://127.0.0.1:18385/static/big.bin none >>"$run/samples.static"
    throughput http://127.0.0.1:18385/v1/download/bench.big "$big_token" >>"$run/samples.accel"
    throughput http://127.0.0.1:18386/v1/download/bench.big "$stream_token" >>"$run/samples.stream"
    connections=64
    measure http://127.0.0.1:18385/v1/catalog >>"$run/samples.catalog"
    measure http://127.0.0.1:18385/v1/download/bench.small -H "Authorization: Bearer $small_token" >>"$run/samples.small"
    measure http://127.0.0.1:18384/v1/download/bench.small -H "Authorization: Bearer $presigned_token" >>"$run/samples.presigned"
done
static=$(median "$run/samples.static")
accel=$(median "$run/samples.accel")
stream=$(median "$run/samples.stream")
printf '| %-46s | %8s | %5s |\n' "100 MiB file, 4 connections (median of $rounds)" "MiB/s" "ratio"
printf '|%s|%s|%s|\n' "------------------------------------------------" "----------" "-------"
printf '| %-46s | %8d | %5s |\n' "nginx static" "$static" "1.00"
printf '| %-46s | %8d | %5s |\n' "storegate, X-Accel-Redirect" "$accel" "$(awk -v a="$accel" -v b="$static" 'BEGIN {printf "%.2f", a / b}')"
printf '| %-46s | %8d | %5s |\n' "storegate, stream" "$stream" "$(awk -v a="$stream" -v b="$static" 'BEGIN {printf "%.2f", a / b}')"
read -r cat_rps cat_p99 < <(median "$run/samples.catalog")
read -r small_rps small_p99 < <(median "$run/samples.small")
read -r presigned_rps presigned_p99 < <(median "$run/samples.presigned")
echo
printf '| %-46s | %10s | %8s | %5s |\n' "64 connections (median of $rounds)" "req/s" "p99 ms" "ratio"
printf '|%s|%s|%s|%s|\n' "------------------------------------------------" "------------" "----------" "-------"
printf '| %-46s | %10.0f | %8.2f | %5s |\n' "/v1/catalog" "$cat_rps" "$cat_p99" "1.00"
printf '| %-46s | %10.0f | %8.2f | %5s |\n' "4 KiB download with a token (X-Accel)" "$small_rps" "$small_p99" "$(awk -v a="$small_rps" -v b="$cat_rps" 'BEGIN {printf "%.2f", a / b}')"
printf '| %-46s | %10.0f | %8.2f | %5s |\n' "the same in S3, with a token (302 presigned)" "$presigned_rps" "$presigned_p99" "$(awk -v a="$presigned_rps" -v b="$cat_rps" 'BEGIN {printf "%.2f", a / b}')"

# Peak RSS of the streaming gateway: before, and during ten concurrent 100 MiB streams.
pid=$(cat "$run/stream.pid")
before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
curls=()
for _ in $(seq 10); do
    curl -fs -H "Authorization: Bearer $stream_token" http://127.0.0.1:18386/v1/download/bench.big -o /dev/null &
    curls+=($!)
done
peak=$before
while kill -0 "${curls[@]}" 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    [ "$rss" -gt "$peak" ] && peak=$rss
    sleep 0.05
done
wait "${curls[@]}" || true
echo
echo "stream gateway RSS: $((before / 1024)) MiB before, $((peak / 1024)) MiB peak during ten concurrent 100 MiB streams"
if [ "${EVENTS:-0}" = 1 ]; then
    echo "events of the X-Accel gateway (delivered, pending):"
    curl -fs http://127.0.0.1:18385/v1/metrics | grep -E '^storegate_events_(total|pending)' || true
fi
