#!/usr/bin/env bash
# Ledger benchmark, in one run on one nginx (1 worker, kept FastCGI connections), against an instant App Store
# stand-in, the verdict cache off:
#   - /v1/verify, a new receipt per request (one new purchase row each),
#   - /v1/restore-sync of one of 1000 ten-transaction receipts at random (new rows at first, then known ones),
# each through three deployments: one gateway on SQLite; one gateway on PostgreSQL; two gateways on the same
# PostgreSQL behind one upstream. PostgreSQL is a private server this script starts (fsync on, as SQLite's
# synchronous = FULL). ROUNDS interleaved rounds, medians, ratios against the SQLite gateway.
# Usage: Tests/Benchmarks/ledger.sh [SECONDS per run, default 10] [CONNECTIONS, default 64] [ROUNDS, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/Tests/Benchmarks/common.sh"
benchmark_arguments "$@"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "needs PostgreSQL (apt-get install postgresql)"; exit 1; }

start_run ledger-bench
build_release

# The private PostgreSQL server, run as the postgres user (it refuses root).
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$run/pg"
[ "$(id -u)" -ne 0 ] || chown postgres "$run/pg"
as_postgres "$pg_bin/initdb" -D "$run/pg/data" -A trust -U storegate --no-sync >/dev/null
# 3>&- etc.: the server must not keep this script's output pipes open.
as_postgres "$pg_bin/pg_ctl" -D "$run/pg/data" -l "$run/pg/server.log" -w \
    -o "-p 18199 -k $run/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null 3>&- </dev/null
pids+=("$(head -1 "$run/pg/data/postmaster.pid")")
postgres_url="postgres://storegate@127.0.0.1:18199/postgres"

"$bin/storegate-appstore-sim" --listen 127.0.0.1:18190 --accept-any com.example.magazine.issue42 >/dev/null &
pids+=($!)
gateway() { # name, ledger URL
    STOREGATE_SERVER_LISTEN="$run/$1.sock" STOREGATE_SERVER_SOCKET_MODE=0666 STOREGATE_SERVER_SOCKET_GROUP="" \
        STOREGATE_SERVER_WORKERS=128 STOREGATE_APPLE_MAX_CONNECTIONS=128 STOREGATE_APPLE_CACHE_TTL_S=0 \
        STOREGATE_APPLE_PRODUCTION_URL="http://127.0.0.1:18190/verifyReceipt" \
        STOREGATE_APPLE_SANDBOX_URL="http://127.0.0.1:18190/sandbox/verifyReceipt" \
        STOREGATE_TOKENS_SECRET=benchmark-token-secret-0123456789 STOREGATE_LEDGER_URL="$2" \
        STOREGATE_LEDGER_POOL_SIZE=32 \
        "$bin/storegate" serve --config "$top/deploy/storegate.yaml" 2>"$run/$1.log" &
    pids+=($!)
    wait_for_socket "$run/$1.sock"
}
gateway sqlite "sqlite://$run/ledger.sqlite"
gateway pg1 "$postgres_url"
gateway pg2 "$postgres_url"

mkdir -p "$run/tmp"
site() { # port, upstream servers
    echo "upstream u$1 { $2 keepalive 16; }"
    echo "server { listen 127.0.0.1:$1; location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass u$1; fastcgi_keep_conn on; } }"
}
cat >"$run/nginx.conf" <<CONF
$(nginx_preamble)
  $(site 18185 "server unix:$run/sqlite.sock;")
  $(site 18186 "server unix:$run/pg1.sock;")
  $(site 18187 "server unix:$run/pg1.sock; server unix:$run/pg2.sock;")
}
CONF
/usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
pids+=($!)
for _ in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18187/v1/catalog && break; sleep 0.1; done

# 1000 restore receipts of ten transactions (an issue and nine tips), registered with the stand-in; the wrk
# script posts one at random. Receipt names are 9 characters, so their base64 has no padding to escape.
python3 - "$run" <<'PY'
import base64, json, sys, urllib.request
run = sys.argv[1]
names = [f"rst{i:06d}" for i in range(1000)]
fixtures = [{"receipt": name, "environment": "Production", "bundle_id": "com.example.magazine",
             "transactions": [{"product_id": "com.example.magazine.issue42" if t == 0 else "com.example.magazine.tip",
                               "transaction_id": f"9{i:06d}{t:02d}"} for t in range(10)]}
            for i, name in enumerate(names)]
request = urllib.request.Request("http://127.0.0.1:18190/_sim/receipts", json.dumps(fixtures).encode(), method="POST")
urllib.request.urlopen(request).read()
bodies = ",\n".join('\'{"receipt-data":"%s"}\'' % base64.b64encode(n.encode()).decode() for n in names)
with open(f"{run}/restore.lua", "w") as lua:
    lua.write("local bodies = {\n%s\n}\n" % bodies)
    lua.write('init = function() math.randomseed(os.time() + math.random(1, 1000000)) end\n'
              'request = function()\n'
              '  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[math.random(1, #bodies)])\n'
              'end\n')
PY
write_cold_verify_script "$run/verify.lua"
for port in 18185 18186 18187; do
    curl -fs -d '{"receipt-data":"cnN0MDAwMDAw"}' "http://127.0.0.1:$port/v1/restore-sync" | grep -q '"recorded"' \
        || { echo "restore-sync does not answer on $port:"; cat "$run"/*.log; exit 1; }
done

targets=("18185 SQLite, 1 gateway" "18186 PostgreSQL, 1 gateway" "18187 PostgreSQL, 2 gateways")
echo "measuring: $rounds rounds of ${seconds}s per target, $connections connections, nginx 1 worker" >&2
for round in $(seq "$rounds"); do
    for target in "${targets[@]}"; do
        port=${target%% *}
        measure "http://127.0.0.1:$port/v1/verify" -s "$run/verify.lua" >>"$run/samples.verify.$port"
        measure "http://127.0.0.1:$port/v1/restore-sync" -s "$run/restore.lua" >>"$run/samples.restore.$port"
    done
done
for route in verify restore; do
    read -r base_rps _ < <(median "$run/samples.$route.18185")
    echo
    printf '| %-44s | %10s | %8s | %5s |\n' "/v1/$([ $route = verify ] && echo verify || echo restore-sync) (median of $rounds)" "req/s" "p99 ms" "ratio"
    printf '|%s|%s|%s|%s|\n' "----------------------------------------------" "------------" "----------" "-------"
    for target in "${targets[@]}"; do
        read -r rps p99 < <(median "$run/samples.$route.${target%% *}")
        printf '| %-44s | %10.0f | %8.2f | %5.2f |\n' "${target#* }" "$rps" "$p99" "$(awk -v a="$rps" -v b="$base_rps" 'BEGIN {print a / b}')"
    done
done
counts() { "$pg_bin/psql" -h 127.0.0.1 -p 18199 -U storegate -d postgres -qAtc "SELECT count(*) FROM $1"; }
echo
echo "PostgreSQL holds $(counts purchases) purchases and $(counts transactions) transactions after the run"
