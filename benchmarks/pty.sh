#!/usr/bin/env bash
# The PTY proxy next to script(1): throughput of `cat` of a large file shown on a terminal, and
# keystroke echo latency at the prompt. The "person's terminal" is a pseudo-terminal driven by a
# small Python program (python3 is needed), which reads everything as fast as it comes.
# Usage: benchmarks/pty.sh [MEGABYTES] [RUNS] [KEYS]   (after mvn -B package; needs bash, script)
# SHELLGATE_BENCH_TRANSCRIPT=FILE keeps everything the driven terminals showed.
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
import os, pty, select, statistics, sys, time

SG, BIG, SCRATCH = os.environ['SG'], os.environ['BIG'], os.environ['SCRATCH']
RUNS, KEYS = int(os.environ['RUNS']), int(os.environ['KEYS'])
SIZE = os.path.getsize(BIG)
ENV = {'PATH': '/usr/bin:/bin', 'HOME': SCRATCH + '/home', 'TERM': 'xterm', 'LANG': 'C.UTF-8', 'PS1': 'ready> ',
       'SHELLGATE_RUN_DIR': SCRATCH + '/run', 'SHELLGATE_CACHE_DIR': SCRATCH + '/cache', 'SHELLGATE_SHELL': '/bin/bash'}
# SHELLGATE_BENCH_TRANSCRIPT=FILE keeps everything the terminals showed, to see where a run stuck
TRANSCRIPT = open(os.environ['SHELLGATE_BENCH_TRANSCRIPT'], 'wb', buffering=0) if os.environ.get('SHELLGATE_BENCH_TRANSCRIPT') else None
for k in ('SHELLGATE_JAVA_HOME', 'JAVA_HOME'):
    if k in os.environ:
        ENV[k] = os.environ[k]

class Term:
    """One pseudo-terminal's master side. Bytes read past a marker stay for the next wait, so a
    prompt that arrives in the same read as the end of a command's output is not lost."""

    def __init__(self, fd):
        self.fd, self.buf, self.total = fd, b'', 0

    def _read(self, patience, what):
        r, _, _ = select.select([self.fd], [], [], patience)
        if not r:
            raise SystemExit('timed out after %d s waiting for %r; the terminal showed last: %r'
                             % (patience, what, self.buf[-300:]))
        chunk = os.read(self.fd, 1 << 16)
        if TRANSCRIPT:
            TRANSCRIPT.write(chunk)
        self.total += len(chunk)
        return chunk

    def until(self, marker, patience=180):
        """Reads until marker has arrived and consumes everything up to and including it."""
        # a first JVM start on a busy machine (and the AOT cache it makes) can take a while
        while marker not in self.buf:
            self.buf = self.buf[-(len(marker) + 4096):] + self._read(patience, marker)
        self.buf = self.buf[self.buf.index(marker) + len(marker):]

    def write(self, data):
        os.write(self.fd, data)


def spawn(argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(SCRATCH)
        os.execve(argv[0], argv, ENV)
    return pid, Term(fd)

def finish(pid, term):
    try:
        while True:
            r, _, _ = select.select([term.fd], [], [], 10)
            if not r or not os.read(term.fd, 1 << 16):
                break
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(term.fd)

def script_cat():
    start = time.perf_counter()
    pid, term = spawn(['/usr/bin/script', '-qfc', 'cat ' + BIG + '; echo END-$((1+1))', '/dev/null'])
    term.until(b'END-2', 60)
    secs = time.perf_counter() - start
    finish(pid, term)
    return secs

def proxy_session():
    pid, term = spawn([SG, 'shell', '--shell', '/bin/bash'])
    term.until(b'ready> ')
    return pid, term

def proxy_cat(term):
    start = time.perf_counter()
    term.write(b'cat ' + BIG.encode() + b'; echo END-$((1+1))\r')
    term.until(b'END-2', 60)
    secs = time.perf_counter() - start
    term.until(b'ready> ')
    return secs

def echo_latency(term, n):
    times = []
    for i in range(n):
        ch = b'abcdefghij'[i % 10:i % 10 + 1]
        # what came before this key (the rest of a Backspace's echo) is not its echo
        term.buf = b''
        start = time.perf_counter()
        term.write(ch)
        term.until(ch)
        times.append(time.perf_counter() - start)
        term.write(b'\x7f')
        term.until(b'\x08')
    return times

def mbps(secs):
    return SIZE / secs / 1e6

def stage(name):
    print('...', name, file=sys.stderr, flush=True)

stage('cat through shellgate shell and through script, alternately')
pid, term = proxy_session()
# the first cat in a session also warms up the proxy's JVM (its copy loop is compiled meanwhile)
first = (proxy_cat(term), script_cat())
proxy_runs, script_runs = [], []
for _ in range(RUNS):
    proxy_runs.append(proxy_cat(term))
    script_runs.append(script_cat())
stage('keystroke echo through shellgate shell')
proxy_echo = echo_latency(term, KEYS)
term.write(b'exit\r')
finish(pid, term)

stage('keystroke echo, bash alone and in script')
pid, term = spawn(['/bin/bash', '--norc', '-i'])
term.until(b'ready> ')
bash_echo = echo_latency(term, KEYS)
term.write(b'exit\r')
finish(pid, term)

pid, term = spawn(['/usr/bin/script', '-qfc', '/bin/bash --norc -i', '/dev/null'])
term.until(b'ready> ')
script_echo = echo_latency(term, KEYS)
term.write(b'exit\r')
finish(pid, term)

print('cat of %.0f MB (%d runs after a first one; median MB/s, min, max):' % (SIZE / 1e6, RUNS))
for name, runs in (('script', script_runs), ('shellgate shell', proxy_runs)):
    speeds = [mbps(s) for s in runs]
    print('  %-16s %7.1f  %7.1f  %7.1f' % (name, statistics.median(speeds), min(speeds), max(speeds)))
ratio = statistics.median([mbps(s) for s in proxy_runs]) / statistics.median([mbps(s) for s in script_runs])
print('  ratio shellgate/script: %.2f' % ratio)
print('  first cat of the session: script %.1f, shellgate shell %.1f MB/s' % (mbps(first[1]), mbps(first[0])))
print('keystroke echo, %d keys (median ms, p90 ms):' % KEYS)
for name, t in (('bash alone', bash_echo), ('bash in script', script_echo), ('shellgate shell', proxy_echo)):
    q = statistics.quantiles(t, n=10)
    print('  %-16s %6.3f  %6.3f' % (name, statistics.median(t) * 1e3, q[8] * 1e3))
print('  added by shellgate (median): %.3f ms' % ((statistics.median(proxy_echo) - statistics.median(bash_echo)) * 1e3))
PY
SG="$sg" BIG="$scratch/big" SCRATCH="$scratch" RUNS="$runs" KEYS="$keys" python3 "$scratch/drive.py" < /dev/null
