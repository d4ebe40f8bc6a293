"""Types the scripted day's lines into a real `shellgate shell` (bash) in a pseudo-terminal, one by one, as a
person would, and says what became of each, from the audit log the proxy writes:

  allow  ran without a question (the judge allowed it)
  own    ran without a question: the judge said ask, but a person typing is not asked about it (the person's own)
  ask    a question appeared; it was answered n (refused), so the line did not run
  deny   refused without a question
  other  anything else, with the record's tier, step and run

Usage: python3 scripted-day-shell.py SHELLGATE LINES-FILE   (one line to type a line; the environment is the gate's:
HOME, SHELLGATE_STATE_DIR, ...; the working directory is the project). Prints one `RESULT<TAB>LINE` per line.
The person's ~/.bashrc must set PS1='day-\\!> ' (the history number counts every line, run or refused).
SHELLGATE_BENCH_TRANSCRIPT=FILE keeps everything the terminal showed.
"""
import fcntl
import json
import os
import pty
import re
import select
import struct
import sys
import termios
import time

SG, LINES = sys.argv[1], sys.argv[2]
AUDIT = os.path.join(os.environ['SHELLGATE_STATE_DIR'], 'audit.jsonl')
QUESTION = b'[n] refuse: '
PROMPT = re.compile(rb'day-(\d+)> ')
# programs a person uses and leaves: what shows they are up, and the keys that leave them
LEAVE = {'less': (b'(END)', b'q'), 'vim': (b'"notes.txt"', b'\x1b:qa!\r')}
TRANSCRIPT = open(os.environ['SHELLGATE_BENCH_TRANSCRIPT'], 'ab', buffering=0) \
    if os.environ.get('SHELLGATE_BENCH_TRANSCRIPT') else None


class Term:
    """The master side of the person's terminal; `seen` is everything shown since the last mark."""

    def __init__(self, fd):
        self.fd, self.seen = fd, b''

    def read(self, patience):
        r, _, _ = select.select([self.fd], [], [], patience)
        if r:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:
                chunk = b''
            if not chunk:
                fail('the terminal closed')
            if TRANSCRIPT:
                TRANSCRIPT.write(chunk)
            self.seen += chunk

    def mark(self):
        self.seen = b''

    def prompt_after(self, number, what, patience=120):
        """Waits for a prompt numbered above `number`; returns its number."""
        deadline = time.monotonic() + patience
        while True:
            later = [int(m.group(1)) for m in PROMPT.finditer(self.seen) if int(m.group(1)) > number]
            if later:
                self.mark()
                return later[-1]
            if time.monotonic() > deadline:
                fail('no prompt after %s in %d s' % (what, patience))
            self.read(1)

    def wait_for(self, marker, what, patience=60):
        deadline = time.monotonic() + patience
        while marker not in self.seen:
            if time.monotonic() > deadline:
                fail('%r did not show for %s in %d s' % (marker, what, patience))
            self.read(1)

    def write(self, data):
        os.write(self.fd, data)


class Audit:
    """The proxy's records, read as they are appended (only whole lines)."""

    def __init__(self):
        self.offset = os.path.getsize(AUDIT) if os.path.exists(AUDIT) else 0

    def record_of(self, line):
        if not os.path.exists(AUDIT):
            return None
        with open(AUDIT, 'rb') as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b'\n') + 1
        self.offset += end
        for raw in data[:end].splitlines():
            rec = json.loads(raw)
            if rec.get('entry') == 'pty' and rec.get('cmd') == line:
                return rec
            if rec.get('entry') == 'pty':
                fail('a record of %r came where one of %r was awaited' % (rec.get('cmd'), line))
        return None


def fail(why):
    term_seen = TERM.seen[-600:] if 'TERM' in globals() else b''
    sys.exit('scripted-day-shell: %s; the terminal showed last: %r' % (why, term_seen))


def result(rec, asked):
    tier, step, run = rec.get('tier'), rec.get('step'), rec.get('run')
    if run is True and step == 'judge' and tier == 'allow' and not asked:
        return 'allow'
    if run is True and step == 'person' and tier == 'ask' and not asked \
            and rec.get('message', '').startswith('typed by the person at their guarded shell'):
        return 'own'
    if run is False and step == 'person' and tier == 'ask' and asked:
        return 'ask'
    if run is False and tier == 'deny' and not asked:
        return 'deny'
    return 'other:%s/%s/%s%s' % (tier, step, run, '/asked' if asked else '')


def day(lines):
    audit = Audit()
    number = TERM.prompt_after(-1, 'the start', 240)
    for line in lines:
        TERM.write(line.encode() + b'\r')
        asked, deadline = False, time.monotonic() + 180
        while (rec := audit.record_of(line)) is None:
            if not asked and QUESTION in TERM.seen:
                asked = True
                # a key within 300 ms of the question is no answer (it would go to the shell after it)
                time.sleep(0.5)
                TERM.write(b'n')
            if time.monotonic() > deadline:
                fail('no audit record of %r in 180 s' % line)
            TERM.read(0.2)
        if asked:
            TERM.wait_for(b'refused', line)
            if b'the keys go to the shell' in TERM.seen:
                fail('the refusal key of %r was taken as typed ahead' % line)
        outcome = result(rec, asked)
        program = line.split()[0]
        if rec.get('run') is True and program in LEAVE:
            shows, keys = LEAVE[program]
            TERM.wait_for(shows, line)
            TERM.write(keys)
        number = TERM.prompt_after(number, line)
        print('%s\t%s' % (outcome, line), flush=True)
    TERM.write(b'exit\r')


with open(LINES, encoding='utf-8') as f:
    typed = [l.rstrip('\n') for l in f if l.strip()]
pid, fd = pty.fork()
if pid == 0:
    # the person's terminal: 40 rows of 120 columns, as a window would have (pagers and editors need a size)
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))
    os.execv(SG, [SG, 'shell', '--shell', '/bin/bash'])
TERM = Term(fd)
try:
    day(typed)
    ended = time.monotonic() + 30
    while not os.waitpid(pid, os.WNOHANG)[0]:
        if time.monotonic() > ended:
            fail('the shell did not end after exit')
        try:
            TERM.read(0.5)
        except SystemExit:
            os.waitpid(pid, 0)
            break
except BaseException:
    # the proxy puts its shell away on SIGTERM; nothing typed after a failure may run
    os.kill(pid, 15)
    os.waitpid(pid, 0)
    raise
