# Helpers shared by the benchmark scripts (sourced after setting $top).

# A private folder ($run) removed on exit, with every process in $pids stopped first.
start_run() {
    run=$(mktemp -d "/tmp/storegate-$1.XXXXXX")
    chmod 755 "$run"
    pids=()
    trap 'for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
          for pid in "${pids[@]}"; do for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
          rm -rf "$run"' EXIT
}

# Builds storegate and the App Store stand-in in release mode; $bin is their folder.
build_release() {
    echo "building storegate and the App Store stand-in (release)..." >&2
    (cd "$top" && swift build -c release --product storegate >/dev/null \
        && swift build -c release --product storegate-appstore-sim >/dev/null)
    bin="$(cd "$top" && swift build -c release --show-bin-path)"
}


# wrk's "requests/s p99-ms" for one URL; extra arguments go to wrk (e.g. -s script.lua).
measure() {
    local url="$1"
    shift
    wrk -t1 -c"$connections" -d"${seconds}s" --latency "$@" "$url" >"$run/wrk.out" 2>&1
    wrk_figures "$run/wrk.out" "$url"
}

# "requests/s p99-ms" from a wrk --latency report; complains about non-2xx answers.
wrk_figures() {
    local rps p99
    rps=$(awk '/Requests\/sec/ {print $2}' "$1")
    p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v=v*1000}; print v}' "$1")
    if grep -q "Non-2xx" "$1"; then echo "errors in $2:" >&2; cat "$1" >&2; fi
    echo "$rps $p99"
}

# The median sample's "req/s p99" of samples file $1.
median() { sort -n "$1" | awk '{line[NR] = $0} END {print line[int((NR + 1) / 2)]}'; }

# Waits up to 10 s for a unix socket.
wait_for_socket() { for _ in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.1; done; echo "no socket $1" >&2; return 1; }

# A wrk script posting a new credential to /v1/verify on every request, into file $1: by default a receipt (24
# digits: valid base64); $2 is another body with %08d%08d%08d for the digits (a Google Play purchase token).
write_cold_verify_script() {
    local body='{"receipt-data":"%08d%08d%08d"}'
    if [ -n "${2:-}" ]; then body="$2"; fi
    cat >"$1" <<LUA
local counter = 0
local prefix = 0
setup = function(thread) thread:set("prefix", math.random(10000000, 99999999)) end
init = function() math.randomseed(os.time() + prefix) end
request = function()
  counter = counter + 1
  local body = string.format('$body', prefix, counter, math.random(0, 99999999))
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end
LUA
}

# SECONDS per run, CONNECTIONS and ROUNDS from the command line (defaults 10, 64, 3); checks for wrk and curl.
benchmark_arguments() {
    seconds="${1:-10}"
    connections="${2:-64}"
    rounds="${3:-3}"
    for tool in wrk curl; do command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk curl)"; exit 1; }; done
}

# The top of a private nginx.conf (1 worker, files in $run), up to the inside of its http block.
nginx_preamble() {
    cat <<CONF
user nobody nogroup; daemon off; worker_processes 1; pid $run/nginx.pid; error_log $run/nginx.log;
events { worker_connections 4096; }
http {
  access_log off; client_body_temp_path $run/tmp; fastcgi_temp_path $run/tmp;
  proxy_temp_path $run/tmp; uwsgi_temp_path $run/tmp; scgi_temp_path $run/tmp;
CONF
}

# nginx (1 worker) on 127.0.0.1:PORT ($1) passing /v1/ to the gateway on unix socket $2 over kept connections;
# returns once it answers the catalog.
start_nginx_for_gateway() {
    mkdir -p "$run/tmp"
    cat >"$run/nginx.conf" <<CONF
$(nginx_preamble)
  upstream gateway { server unix:$2; keepalive 16; }
  server { listen 127.0.0.1:$1;
    location /v1/ { include /etc/nginx/fastcgi_params; fastcgi_pass gateway; fastcgi_keep_conn on; } }
}
CONF
    /usr/sbin/nginx -p "$run" -c "$run/nginx.conf" &
    pids+=($!)
    for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$1/v1/catalog" && break; sleep 0.1; done
}

# $rounds interleaved rounds of the catalog at URL $1 and of each target given as three arguments after it
# (LABEL URL WRK-SCRIPT), then a table of medians with ratios against the catalog.
compare_with_catalog() {
    local catalog="$1" index label url script rps p99 cat_rps cat_p99
    shift
    local targets=("$@")
    echo "measuring: $rounds rounds of ${seconds}s per target, $connections connections, nginx 1 worker" >&2
    for _ in $(seq "$rounds"); do
        measure "$catalog" >>"$run/samples.0"
        for ((index = 0; index < ${#targets[@]}; index += 3)); do
            measure "${targets[index + 1]}" -s "${targets[index + 2]}" >>"$run/samples.$((index / 3 + 1))"
        done
    done
    read -r cat_rps cat_p99 < <(median "$run/samples.0")
    printf '| %-48s | %10s | %8s | %5s |\n' "target (median of $rounds, $connections connections)" "req/s" "p99 ms" "ratio"
    printf '|%s|%s|%s|%s|\n' "--------------------------------------------------" "------------" "----------" "-------"
    printf '| %-48s | %10.0f | %8.2f | %5s |\n' "/v1/catalog" "$cat_rps" "$cat_p99" "1.00"
    for ((index = 0; index < ${#targets[@]}; index += 3)); do
        label="${targets[index]}"
        read -r rps p99 < <(median "$run/samples.$((index / 3 + 1))")
        printf '| %-48s | %10.0f | %8.2f | %5s |\n' "$label" "$rps" "$p99" \
            "$(awk -v a="$rps" -v b="$cat_rps" 'BEGIN {printf "%.2f", a / b}')"
    done
}
