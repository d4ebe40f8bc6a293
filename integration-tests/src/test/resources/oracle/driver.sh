#!/bin/bash
# The execution oracle's driver: runs inside the sandbox (see SandboxRun.java) and runs each line of
# its list on a fresh copy of the world, traced with strace.
#   $1  the list: NUL-terminated triples of id, shell and command line
#   $2  the output directory: one directory per line (made beforehand) for trace.PID files, output and status
#   $3  the world's template (read-only)
#   $4  where the world lives, the same path as on the host, under the sandbox's own /tmp
#   $5  the system calls to trace
#   $6  each line's time limit, in seconds
set -u
list=$1 out=$2 template=$3 world=$4 calls=$5 limit=$6

reset() {
    rm -rf /tmp/* /tmp/.[!.]* /tmp/..?* /run/* /dev/shm/* 2>/dev/null
    mkdir -p "$world" && cp -a "$template/." "$world/"
}

reset
# no file of a line (its output, a trace) grows past 64 MB: ulimit -f counts 512-byte blocks
ulimit -f 131072
while IFS= read -r -d '' id && IFS= read -r -d '' shell && IFS= read -r -d '' line; do
    : >"$out/$id/begin"
    cd "$world/home/proj" || exit 3
    # At the limit, timeout sends TERM to strace and to the line (they share timeout's process group):
    # strace writes what it traced and detaches, and exits 124; KILL follows 5 s later if strace is
    # still there, and then its traces may lack their end (status 137).
    start=$EPOCHREALTIME
    timeout -k 5 -s TERM "$limit" \
        strace --seccomp-bpf -ff -q -y -s 256 -e signal=none -e trace="$calls" -o "$out/$id/trace" \
        "$shell" -c "$line" </dev/null >"$out/$id/output" 2>&1
    echo "$? $start $EPOCHREALTIME" >"$out/$id/status"
    cd /
    # what the line left running in the background (kill -1 spares this shell and the sandbox's init)
    kill -KILL -1 2>/dev/null
    # a new copy of the world only after a line changed something in it: copying costs more than looking
    if [ -n "$(find /tmp /run /dev/shm -newer "$out/$id/begin" -print -quit 2>/dev/null)" ]; then
        reset
    fi
done <"$list"
