#!/usr/bin/env bash
# Instructions per FastCGI `GET /v1/catalog`, counted by callgrind (an instruction count repeats on a shared
# machine where req/s does not), for the C libfcgi reference answering the same bytes and for storegate on
# the deploy/ config with the request log on (the default) and off. Each backend runs under callgrind with 2
# workers; after WARMUP requests its counters are zeroed, REQUESTS more are sent straight to its socket with
# nginx's params (one connection each, as nginx without keep-alive), and the count is dumped.
# storegate is linked with mimalloc; the C reference is counted as built (glibc's malloc, the issue's
# reference), and once more with mimalloc preloaded, so the allocator's share and storegate's own are both in
# view.
# valgrind 3.19 cannot read the Swift toolchain's DWARF 5, so it runs a `strip --strip-debug` copy.
# Usage: Tests/Benchmarks/instructions.sh [REQUESTS, default 1000]
# With KEEP=DIR the callgrind profiles are kept there, for `callgrind_annotate --inclusive=yes DIR/NAME.callgrind.*`.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
requests="${1:-1000}"
warmup=200
source "$top/Tests/Benchmarks/common.sh"
for tool in valgrind callgrind_control gcc pkg-config python3 strip; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install valgrind gcc pkg-config libfcgi-dev)"; exit 1; }
done
start_run instructions
client="$top/Tests/Benchmarks/fcgi_requests.py"

echo "building storegate (release) and the C reference..." >&2
(cd "$top" && swift build -c release --product storegate >/dev/null)
strip --strip-debug -o "$run/storegate" "$(cd "$top" && swift build -c release --show-bin-path)/storegate"
gcc -O2 -o "$run/hello" "$top/Tests/Benchmarks/hello.c" $(pkg-config --cflags --libs fcgi) -lpthread

gateway_environment=(
    STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="sqlite://$run/ledger.sqlite"
    STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" STOREGATE_SERVER_WORKERS=2
)

# The catalog's bytes, as storegate renders them, for the C reference to answer.
env "${gateway_environment[@]}" STOREGATE_SERVER_LISTEN="$run/fetch.sock" "$run/storegate" serve \
    --config "$top/deploy/storegate.yaml" 2>"$run/fetch.log" &
fetch=$!
wait_for_socket "$run/fetch.sock"
python3 "$client" "$run/fetch.sock" /v1/catalog --body >"$run/catalog.json"
kill -TERM $fetch
wait $fetch 2>/dev/null || true

# Instructions per request of a backend listening on socket $1: `count SOCKET NAME [VAR=value ...] -- PROGRAM ARGS`.
count() {
    local socket="$1" name="$2" variables=()
    shift 2
    while [ "$1" != "--" ]; do variables+=("$1"); shift; done
    shift
    env "${variables[@]}" valgrind --tool=callgrind --callgrind-out-file="$run/$name.callgrind" "$@" \
        2>"$run/$name.log" &
    local pid=$!
    for _ in $(seq 600); do [ -S "$socket" ] && break; sleep 0.1; done
    python3 "$client" "$socket" /v1/catalog "$warmup"
    callgrind_control --zero "$pid" >/dev/null 2>&1
    python3 "$client" "$socket" /v1/catalog "$requests"
    callgrind_control --dump "$pid" >/dev/null 2>&1
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    awk -v n="$requests" '/^totals:/ {printf "%.0f\n", $2 / n}' "$run/$name.callgrind".*
}

echo "counting: $warmup warm-up requests, then $requests counted, 2 workers each..." >&2
c=$(count "$run/hello.sock" hello -- "$run/hello" "$run/hello.sock" "$run/catalog.json" 2)
mimalloc=$(ldd "$run/storegate" | awk '/libmimalloc/ {print $3}')
[ -n "$mimalloc" ] || { echo "storegate is not linked with mimalloc" >&2; exit 1; }
c_mimalloc=$(count "$run/hello-mimalloc.sock" hello-mimalloc LD_PRELOAD="$mimalloc" -- \
    "$run/hello" "$run/hello-mimalloc.sock" "$run/catalog.json" 2)
logged=$(count "$run/logged.sock" logged "${gateway_environment[@]}" STOREGATE_SERVER_LISTEN="$run/logged.sock" \
    -- "$run/storegate" serve --config "$top/deploy/storegate.yaml")
quiet=$(count "$run/quiet.sock" quiet "${gateway_environment[@]}" STOREGATE_SERVER_LISTEN="$run/quiet.sock" \
    STOREGATE_LOG_REQUESTS=false -- "$run/storegate" serve --config "$top/deploy/storegate.yaml")
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$run"/*.callgrind.* "$KEEP"/; fi
grep -q 'route=/v1/catalog' "$run/logged.log" || { echo "the logged run wrote no request lines" >&2; exit 1; }

row() { printf '| %-44s | %12s | %5s |\n' "$1" "$2" "$3"; }
ratio() { awk -v s="$1" -v c="$c" 'BEGIN {printf "%.2f", s / c}'; }
row "backend (GET /v1/catalog, $requests requests)" "instructions" "ratio"
printf '|%s|%s|%s|\n' "----------------------------------------------" "--------------" "-------"
row "C libfcgi, same bytes" "$c" "1.00"
row "C libfcgi, same bytes, mimalloc preloaded" "$c_mimalloc" "$(ratio "$c_mimalloc")"
row "storegate, default config (request log on)" "$logged" "$(ratio "$logged")"
row "storegate, log.requests: false" "$quiet" "$(ratio "$quiet")"
