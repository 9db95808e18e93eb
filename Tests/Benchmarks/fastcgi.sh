#!/usr/bin/env bash
# FastCGI front benchmark: in one run, on the same machine and nginx, wrk against
#   1. nginx `return 200` with the catalog's bytes (the ceiling),
#   2. nginx -> a C libfcgi server answering those same pre-rendered bytes (the reference),
#   3. nginx -> storegate /v1/catalog (deploy/ example catalog),
# each without and with fastcgi_keep_conn, then prints req/s, p99 and storegate / C.
# Runs are interleaved over ROUNDS rounds and each figure is the median, so a noisy moment on a shared
# machine moves one sample, not the result.
# Usage: Tests/Benchmarks/fastcgi.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
seconds="${1:-10}"
connections="${2:-64}"
rounds="${3:-3}"
workers=128   # > nginx keepalive (16) x 1 worker + connections
source "$top/Tests/Benchmarks/common.sh"
for tool in wrk gcc pkg-config; do command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk gcc pkg-config libfcgi-dev nginx)"; exit 1; }; done

run=$(mktemp -d /tmp/storegate-bench.XXXXXX)
chmod 755 "$run"
pids=()
# nginx and storegate stop on TERM; the C reference needs KILL (libfcgi's SIGTERM handler only flags a shutdown).
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    [ -n "${hello:-}" ] && kill -KILL "$hello" 2>/dev/null
    for pid in "${pids[@]}"; do for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
    rm -rf "$run"
}
trap cleanup EXIT

echo "building storegate (release) and the C reference..." >&2
(cd "$top" && swift build -c release --product storegate >/dev/null)
bin="$(cd "$top" && swift build -c release --show-bin-path)/storegate"
gcc -O2 -o "$run/hello" "$top/Tests/Benchmarks/hello.c" $(pkg-config --cflags --libs fcgi) -lpthread

STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite" STOREGATE_SERVER_LISTEN="$run/storegate.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
    STOREGATE_SERVER_WORKERS=$workers "$bin" serve --config "$top/deploy/storegate.yaml" 2>"$run/storegate.log" &
pids+=($!)
wait_for_socket "$run/storegate.sock"

# The C server answers exactly the bytes storegate renders for the catalog.
mkdir -p "$run/nginx/tmp"
cat >"$run/fetch.conf" <<CONF
daemon off; worker_processes 1; pid $run/fetch.pid; error_log $run/fetch.log;
events {} http { access_log off; client_body_temp_path $run/nginx/tmp; fastcgi_temp_path $run/nginx/tmp;
  proxy_temp_path $run/nginx/tmp; uwsgi_temp_path $run/nginx/tmp; scgi_temp_path $run/nginx/tmp;
  server { listen 127.0.0.1:18079; location / { include /etc/nginx/fastcgi_params; fastcgi_pass unix:$run/storegate.sock; } } }
CONF
/usr/sbin/nginx -p "$run" -c "$run/fetch.conf" -g "user nobody nogroup;" 2>/dev/null &
fetch=$!
for _ in $(seq 50); do curl -fs -o "$run/catalog.json" http://127.0.0.1:18079/v1/catalog && break; sleep 0.1; done
kill -TERM $fetch; wait $fetch 2>/dev/null || true
"$run/hello" "$run/hello.sock" "$run/catalog.json" $workers &
hello=$!
for _ in $(seq 50); do [ -S "$run/hello.sock" ] && break; sleep 0.1; done

cat >"$run/nginx.conf" <<CONF
user nobody nogroup; daemon off; worker_processes 1; pid $run/nginx.pid; error_log $run/nginx.log;
events { worker_connections 4096; }
http {
  access_log off; client_body_temp_path $run/nginx/tmp; fastcgi_temp_path $run/nginx/tmp;
  proxy_temp_path $run/nginx/tmp; uwsgi_temp_path $run/nginx/tmp; scgi_temp_path $run/nginx/tmp;
  upstream c_kept { server unix:$run/hello.sock; keepalive 16; }
  upstream sg_kept { server unix:$run/storegate.sock; keepalive 16; }
  server { listen 127.0.0.1:18080;
    location = /static { default_type application/json; return 200 '$(cat "$run/catalog.json")'; }
    location = /hello { include /etc/nginx/fastcgi_params; fastcgi_pass unix:$run/hello.sock; }
    location = /v1/catalog { include /etc/nginx/fastcgi_params; fastcgi_pass unix:$run/storegate.sock; } }
  server { listen 127.0.0.1:18081;
    location = /hello { include /etc/nginx/fastcgi_params; fastcgi_pass c_kept; fastcgi_keep_conn on; }
    location = /v1/catalog { include /etc/nginx/fastcgi_params; fastcgi_pass sg_kept; fastcgi_keep_conn on; } }
}
CONF
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
pids+=($!)
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18080/static && break; sleep 0.1; done
curl -fs http://127.0.0.1:18080/v1/catalog | cmp - "$run/catalog.json" || { echo "catalog mismatch"; head -c 300 "$run/catalog.json"; exit 1; }
curl -fs http://127.0.0.1:18080/hello | cmp -s - "$run/catalog.json" || { echo "C reference mismatch"; exit 1; }

echo "measuring: $rounds rounds of ${seconds}s per target, $connections connections, nginx 1 worker, $workers backend threads" >&2
# Odd rounds measure C first, even rounds storegate first, so a machine that slows down (or speeds up) during
# the run does not favour whichever side comes first.
forward=(static:18080/static c:18080/hello sg:18080/v1/catalog c_kept:18081/hello sg_kept:18081/v1/catalog)
backward=(static:18080/static sg:18080/v1/catalog c:18080/hello sg_kept:18081/v1/catalog c_kept:18081/hello)
for round in $(seq "$rounds"); do
    if ((round % 2)); then targets=("${forward[@]}"); else targets=("${backward[@]}"); fi
    for target in "${targets[@]}"; do
        measure "http://127.0.0.1:${target#*:}" >>"$run/samples.${target%%:*}"
    done
done
row() { printf '| %-40s | %10.0f | %8.2f | %5s |\n' "$1" "$2" "$3" "$4"; }
read -r static_rps static_p99 < <(median "$run/samples.static")
printf '| %-40s | %10s | %8s | %5s |\n' "target (median of $rounds)" "req/s" "p99 ms" "ratio"
printf '|%s|%s|%s|%s|\n' "------------------------------------------" "------------" "----------" "-------"
row "nginx return 200 (same body)" "$static_rps" "$static_p99" ""
for mode in "no keep-alive:" "fastcgi_keep_conn:_kept"; do
    read -r c_rps c_p99 < <(median "$run/samples.c${mode#*:}")
    read -r s_rps s_p99 < <(median "$run/samples.sg${mode#*:}")
    row "C libfcgi, ${mode%%:*}" "$c_rps" "$c_p99" "1.00"
    row "storegate /v1/catalog, ${mode%%:*}" "$s_rps" "$s_p99" "$(awk -v s="$s_rps" -v c="$c_rps" 'BEGIN {printf "%.2f", s / c}')"
done
