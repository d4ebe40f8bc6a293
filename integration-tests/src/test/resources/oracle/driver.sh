#!/bin/bash
# The execution oracle's driver: runs inside the sandbox (see SandboxRun.java) and runs each line of
# its list on a fresh copy of the world, traced with strace.
#   $1  the list: NUL-terminated triples of id, shell and command line
#   $2  the output directory: one directory per line (made beforehand) for trace.PID files, output and
#       status (the line's exit status, or limit or killed, then the times it began and ended)
#   $3  the world's template (read-only)
#   $4  where the world lives, the same path as on the host, under the sandbox's own /tmp
#   $5  the system calls to trace
#   $6  each line's time limit, in seconds
#   $7  a file for the processor time the sandbox used (bash's times), for the report
# Each line costs processes, and processes are what costs time here: the driver itself starts none
# besides strace and the line (no timeout, no find), and copies the world again only after a line
# changed it.
set -u
if (( BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 501 )); then
    echo "the oracle's driver needs bash 5.1 or later (wait -n -p)" >&2
    exit 2
fi
list=$1 out=$2 template=$3 world=$4 calls=$5 limit=$6 cpu=$7
shopt -s globstar dotglob nullglob

reset() {
    rm -rf /tmp/* /run/* /dev/shm/* 2>/dev/null
    mkdir -p "$world" && cp -a "$template/." "$world/"
}

# Whether anything in the world or the writable places changed since the line began: a new, deleted
# or renamed entry changes its directory's time, a write the file's own.
changed() {
    local f
    for f in /tmp /run /dev/shm /run/** /dev/shm/** "$world"/**; do
        [[ $f -nt $1 ]] && return 0
    done
    return 1
}

# A timer that costs no process of its own: a read with a time limit on a FIFO nobody writes to,
# in a subshell (a fork, not a new program).
mkfifo /dev/shm/oracle-timer && exec {timer}<>/dev/shm/oracle-timer && rm /dev/shm/oracle-timer || exit 3

reset
# no file of a line (its output, a trace) grows past 64 MB: ulimit -f counts 512-byte blocks
ulimit -f 131072
while IFS= read -r -d '' id && IFS= read -r -d '' shell && IFS= read -r -d '' line; do
    : >"$out/$id/begin"
    cd "$world/home/proj" || { echo "the world's project is missing: $world/home/proj" >&3; exit 3; }
    start=$EPOCHREALTIME
    strace --seccomp-bpf -ff -q -y -s 256 -e signal=none -e trace="$calls" -o "$out/$id/trace" \
        "$shell" -c "$line" </dev/null >"$out/$id/output" 2>&1 &
    pid=$!
    ( read -r -t "$limit" -u "$timer" ) &
    clock=$!
    wait -n -p ended "$pid" "$clock"
    status=$?
    if [[ $ended == "$clock" ]]; then
        # the limit: the line and strace get TERM (kill -1 spares this shell and the sandbox's
        # init), and strace writes what it traced; if strace does not end within 5 s, it is killed
        # and its traces may lack their end
        kill -TERM -1 2>/dev/null
        ( read -r -t 5 -u "$timer" ) &
        clock=$!
        wait -n -p ended "$pid" "$clock"
        status=limit
        if [[ $ended == "$clock" ]]; then
            kill -KILL "$pid"
            status=killed
        fi
    fi
    echo "$status $start $EPOCHREALTIME" >"$out/$id/status"
    cd /
    # what the line left running, and the clock
    kill -KILL -1
    wait
    if changed "$out/$id/begin"; then
        reset
    fi
# bash reports every background job that a signal ended (the clocks, the lines): the loop's own
# standard error is not worth reading, so errors go to fd 3
done <"$list" 3>&2 2>/dev/null
times >"$out/$cpu"
