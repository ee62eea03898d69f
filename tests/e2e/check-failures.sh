#!/usr/bin/env bash
# Judges a ctest log of the end-to-end tests run under a slow tool (ThreadSanitizer, valgrind):
#   tests/e2e/check-failures.sh <ctest log> [allowed test name]...
# Exit 0 when every failed ctest test failed only in libcheck tests named here (tests whose
# own time budget such a tool cannot meet; the stage says why beside each name). A test binary
# that failed without a libcheck failure line (a crash, a ctest timeout) is never allowed.
set -euo pipefail
log=$1
shift
declare -A allowed=()
for name in "$@"; do allowed[$name]=1; done
status=0 current="" lines=0
finish() {
    if [ -n "$current" ] && [ "$lines" -eq 0 ]; then
        echo "check-failures: $current failed without a libcheck failure line"
        status=1
    fi
}
while IFS= read -r line; do
    if [[ $line =~ Test\ +#[0-9]+:\ ([A-Za-z0-9_]+)\ .*\*\*\*(Failed|Timeout|Exception|Not\ Run) ]]; then
        finish
        current=${BASH_REMATCH[1]} lines=0
    elif [[ $line =~ Test\ +#[0-9]+:\  ]]; then
        finish
        current="" lines=0
    elif [ -n "$current" ] && [[ $line =~ :[FE]:[A-Za-z0-9_]+:([A-Za-z0-9_]+):[0-9]+: ]]; then
        lines=$((lines + 1))
        test=${BASH_REMATCH[1]}
        if [ -n "${allowed[$test]:-}" ]; then
            echo "check-failures: allowed (too slow under this tool): $test"
        else
            echo "check-failures: FAILED: $line"
            status=1
        fi
    fi
done <"$log"
finish
exit $status
