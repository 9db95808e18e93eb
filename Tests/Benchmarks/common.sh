# Helpers shared by the benchmark scripts (sourced; expects $run, $seconds and $connections).

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
