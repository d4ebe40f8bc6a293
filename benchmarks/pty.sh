#!/usr/bin/env bash
# The PTY proxy next to script(1): throughput of `cat` of a large file shown on a terminal, and
# keystroke echo latency at the prompt. The "person's terminal" is a pseudo-terminal driven by a
# small Python program (python3 is needed), which reads everything as fast as it comes.
# Usage: benchmarks/pty.sh [MEGABYTES] [RUNS] [KEYS]   (after mvn -B package; needs bash, script)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-100}
runs=${2:-5}
keys=${3:-300}
sg=$PWD/launcher/target/shellgate
[ -x "$sg" ] || { echo "build first: mvn -B package -DskipTests" >&2; exit 1; }
command -v python3 > /dev/null || { echo "needs python3 to drive the terminal" >&2; exit 1; }
command -v script > /dev/null || { echo "needs script(1) (util-linux) to compare with" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/run" "$scratch/cache"
# the system's bashrc sets a prompt of its own; the proxy sources this one after it
echo "PS1='ready> '" > "$scratch/home/.bashrc"
# printable bytes, no newlines: what the terminal shows is the file itself
head -c $((mb * 1024 * 1024 * 3 / 4)) /dev/urandom | base64 -w0 > "$scratch/big"

cat > "$scratch/drive.py" <<'PY'
import os, pty, select, statistics, time

SG, BIG, SCRATCH = os.environ['SG'], os.environ['BIG'], os.environ['SCRATCH']
RUNS, KEYS = int(os.environ['RUNS']), int(os.environ['KEYS'])
SIZE = os.path.getsize(BIG)
ENV = {'PATH': '/usr/bin:/bin', 'HOME': SCRATCH + '/home', 'TERM': 'xterm', 'LANG': 'C.UTF-8', 'PS1': 'ready> ',
       'SHELLGATE_RUN_DIR': SCRATCH + '/run', 'SHELLGATE_CACHE_DIR': SCRATCH + '/cache', 'SHELLGATE_SHELL': '/bin/bash'}
for k in ('SHELLGATE_JAVA_HOME', 'JAVA_HOME'):
    if k in os.environ:
        ENV[k] = os.environ[k]

def spawn(argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(SCRATCH)
        os.execve(argv[0], argv, ENV)
    return pid, fd

def read_until(fd, marker, buf=b''):
    while marker not in buf:
        # a first JVM start on a busy machine (and the AOT cache it makes) can take a while
        r, _, _ = select.select([fd], [], [], 180)
        if not r:
            raise SystemExit('timed out waiting for %r; got %r' % (marker, buf[-200:]))
        buf += os.read(fd, 1 << 16)
        if len(buf) > 1 << 20:
            buf = buf[-4096:]
    return buf

def drain(fd, count_marker):
    """Reads until count_marker appears; returns the bytes read."""
    total, tail = 0, b''
    while count_marker not in tail:
        r, _, _ = select.select([fd], [], [], 60)
        if not r:
            raise SystemExit('timed out')
        chunk = os.read(fd, 1 << 16)
        total += len(chunk)
        tail = (tail + chunk)[-256:]
    return total

def finish(pid, fd):
    try:
        while True:
            r, _, _ = select.select([fd], [], [], 10)
            if not r or not os.read(fd, 1 << 16):
                break
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)

def script_cat():
    start = time.perf_counter()
    pid, fd = spawn(['/usr/bin/script', '-qfc', 'cat ' + BIG + '; echo END-$((1+1))', '/dev/null'])
    drain(fd, b'END-2')
    secs = time.perf_counter() - start
    finish(pid, fd)
    return secs

def proxy_session():
    pid, fd = spawn([SG, 'shell', '--shell', '/bin/bash'])
    read_until(fd, b'ready> ')
    return pid, fd

def proxy_cat(pid, fd):
    start = time.perf_counter()
    os.write(fd, b'cat ' + BIG.encode() + b'; echo END-$((1+1))\r')
    drain(fd, b'END-2')
    secs = time.perf_counter() - start
    read_until(fd, b'ready> ')
    return secs

def echo_latency(fd, n):
    times = []
    for i in range(n):
        ch = b'abcdefghij'[i % 10:i % 10 + 1]
        start = time.perf_counter()
        os.write(fd, ch)
        read_until(fd, ch)
        times.append(time.perf_counter() - start)
        os.write(fd, b'\x7f')
        read_until(fd, b'\x08')
    return times

def mbps(secs):
    return SIZE / secs / 1e6

import sys
def stage(name):
    print('...', name, file=sys.stderr, flush=True)

stage('cat through shellgate shell')
pid, fd = proxy_session()
proxy_runs = [proxy_cat(pid, fd) for _ in range(RUNS)]
stage('keystroke echo through shellgate shell')
proxy_echo = echo_latency(fd, KEYS)
os.write(fd, b'exit\r')
finish(pid, fd)

stage('keystroke echo, bash alone and in script')
stage('cat through script')
script_runs = [script_cat() for _ in range(RUNS)]
bpid, bfd = spawn(['/bin/bash', '--norc', '-i'])
read_until(bfd, b'ready> ')
bash_echo = echo_latency(bfd, KEYS)
os.write(bfd, b'exit\r')
finish(bpid, bfd)

spid, sfd = spawn(['/usr/bin/script', '-qfc', '/bin/bash --norc -i', '/dev/null'])
read_until(sfd, b'ready> ')
script_echo = echo_latency(sfd, KEYS)
os.write(sfd, b'exit\r')
finish(spid, sfd)

print('cat of %.0f MB (%d runs; median MB/s, min, max):' % (SIZE / 1e6, RUNS))
for name, runs in (('script', script_runs), ('shellgate shell', proxy_runs)):
    speeds = [mbps(s) for s in runs]
    print('  %-16s %7.1f  %7.1f  %7.1f' % (name, statistics.median(speeds), min(speeds), max(speeds)))
ratio = statistics.median([mbps(s) for s in proxy_runs]) / statistics.median([mbps(s) for s in script_runs])
print('  ratio shellgate/script: %.2f' % ratio)
print('keystroke echo, %d keys (median ms, p90 ms):' % KEYS)
for name, t in (('bash alone', bash_echo), ('bash in script', script_echo), ('shellgate shell', proxy_echo)):
    q = statistics.quantiles(t, n=10)
    print('  %-16s %6.3f  %6.3f' % (name, statistics.median(t) * 1e3, q[8] * 1e3))
print('  added by shellgate (median): %.3f ms' % ((statistics.median(proxy_echo) - statistics.median(bash_echo)) * 1e3))
PY
SG="$sg" BIG="$scratch/big" SCRATCH="$scratch" RUNS="$runs" KEYS="$keys" python3 "$scratch/drive.py" < /dev/null
