#!/usr/bin/env bash
# Verifications per second per core, with no request, ledger or nginx around them: StoreKit 2 signed
# transactions (chain cached), App Store Server Notifications V2 and a real local app receipt, each verified
# on one thread for SECONDS (Tests/Benchmarks/VerificationCPU). The whole-request figures are verifiers.sh's.
# Usage: Tests/Benchmarks/verification-cpu.sh [SECONDS per kind, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
echo "building the verification benchmark (release)..." >&2
(cd "$top" && swift build -c release --product storegate-verification-cpu >/dev/null)
"$(cd "$top" && swift build -c release --show-bin-path)/storegate-verification-cpu" "${1:-3}"
