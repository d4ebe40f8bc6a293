/*
 * The judge server's native client: one program with two names, decided by the last part of argv[0]:
 * `shellgate-hook` is the hook relay, any other name the drop-in shell. Where it is built, the
 * installed `shellgate` command is a link to it, and the launcher script hands its own -c over to it.
 *
 * shellgate-hook AGENT: an agent's pre-tool hook, relayed to the warm judge server as the launcher
 * script's `shellgate hook AGENT` relays it (see sg_hook_relay there and docs/protocol.md), without
 * starting bash: on a machine where a process start costs milliseconds, bash's own start was half of
 * every hook call. It reads nothing the launcher script would not, sends the same request, and
 * prints the server's answer with its exit code. Its own failures exit 2, which every supported
 * agent takes as "block"; it never prints an allow the server did not give.
 *
 * shellgate [SHELL OPTIONS] -c COMMAND [NAME [ARG...]] (run under the name `shellgate`, as the installed
 * command and as the launcher script's `exec -a shellgate`): the drop-in shell's request (the
 * script's sg_request, same bytes), then, on an allow, exec of the real shell the server named, with
 * no process in between; on a refusal the script's one line on stderr and its exit code.
 *
 * shellgate check --batch [--cwd DIR] [--dialect D] (under the name `shellgate`; the launcher script hands
 * such a command line over): the batch relayed to the server over its Unix socket, as the JVM's BatchRelay
 * relays it (docs/protocol.md, `batch`): the same request, then standard input to the server and its
 * answers, byte for byte those a JVM of its own would print, to standard output. A batch of a few
 * thousand lines took a tenth of a second or more only to start the relaying JVM.
 *
 * Whenever it cannot ask a server it believes (none runs, its files are not this user's alone or are
 * links, the server is older than shellgate.jar, SHELLGATE_NO_SERVER is set, the answer is not one
 * the server proved), and for every invocation it does not relay, it runs the launcher script beside
 * it instead, with the same arguments and input, which judges in a JVM of its own and starts a
 * server for the next call. The drop-in shell hands over with a first argument the script takes
 * off: `__relayed` (the server was not asked: the script does everything as it would have) or
 * `__relayed-unanswered` (it was asked and gave no believable answer: the script does not ask it
 * again).
 *
 * Linux only (/proc/self/exe, memfd). Built by the launcher module where a C compiler is found.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the most input a hook call may send (as HookCommand.MAX_INPUT); more is refused */
#define MAX_INPUT (1 << 20)
/* the longest answer believed; a real one is a few hundred bytes */
#define MAX_REPLY (4 << 20)
/* how long the server's first line may take: a judge answers in milliseconds, and a review step that
 * takes longer (the LLM, a person) is announced at once by an interim line. A server that says nothing
 * for this long (stopped, stuck) is not waited for: the script beside this judges in a JVM of its own,
 * well inside every agent's hook timeout (60 s for Gemini CLI and Qwen Code). */
#define FIRST_LINE_MS (3 * 1000)
/* the longest an interim line may make a client wait (a person's review: at most 600 s) */
#define MAX_WAIT_MS (630 * 1000)

extern char **environ;

static const char *const agents[] = {
    "claude-code", "gemini-cli", "codex", "qwen-code", "copilot-cli", "opencode", "kilo", "pi", "claude", "gemini", "qwen", "copilot",
    NULL,
};

/* A growing byte buffer. */
struct buf {
    char *p;
    size_t len, cap;
};

static _Noreturn void fail(const char *fmt, ...) {
    va_list ap;
    fputs("shellgate: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

static void reserve(struct buf *b, size_t more) {
    if (b->len + more <= b->cap) {
        return;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) {
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) {
        fail("out of memory");
    }
    b->p = p;
    b->cap = cap;
}

static void put(struct buf *b, const char *s, size_t n) {
    reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void puts_(struct buf *b, const char *s) {
    put(b, s, strlen(s));
}

/* s (n bytes) as a JSON string: quotes, backslashes and control characters escaped, the rest as it is
 * (as the launcher script's sg_json: the same bytes) */
static void put_json(struct buf *b, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    reserve(b, n + 2);
    b->p[b->len++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            put(b, e, 2);
        } else if (c == '\n') {
            put(b, "\\n", 2);
        } else if (c == '\r') {
            put(b, "\\r", 2);
        } else if (c == '\t') {
            put(b, "\\t", 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            put(b, e, 6);
        } else {
            reserve(b, 1);
            b->p[b->len++] = (char)c;
        }
    }
    reserve(b, 1);
    b->p[b->len++] = '"';
}

static char *concat(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (!s) {
        fail("out of memory");
    }
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    return s;
}

static int absolute(const char *s) {
    return s && s[0] == '/';
}

/* the folder this program is in (links resolved) */
static char *own_dir(void) {
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0 || (size_t)n >= sizeof path - 1) {
        fail("cannot tell where shellgate-hook is (/proc/self/exe)");
    }
    path[n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash) {
        fail("cannot tell where shellgate-hook is (/proc/self/exe)");
    }
    *slash = '\0';
    return strdup(path[0] ? path : "/");
}

static const char *script_path;
static const char *agent;
/* how SIGPIPE was handled when this program started: what the script or the shell it runs inherits */
static struct sigaction pipe_at_start;

/* Runs the launcher script (`shellgate hook AGENT`) in this process: it reads the hook's input from
 * standard input as it is now. */
static _Noreturn void run_script(void) {
    sigaction(SIGPIPE, &pipe_at_start, NULL);
    char *const argv[] = {(char *)script_path, "hook", (char *)agent, NULL};
    execv(script_path, argv);
    fail("cannot run %s: %s", script_path, strerror(errno));
}

/* Runs the launcher script with the input already read as its standard input, straight to a JVM of
 * its own (a server that took the request and gave no believable answer is not asked again). */
static _Noreturn void run_script_with(const struct buf *input) {
    int fd = memfd_create("shellgate-hook-input", MFD_CLOEXEC);
    if (fd < 0) {
        fail("cannot keep the hook input for the launcher: %s", strerror(errno));
    }
    size_t done = 0;
    while (done < input->len) {
        ssize_t w = write(fd, input->p + done, input->len - done);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            fail("cannot keep the hook input for the launcher: %s", strerror(errno));
        }
        done += (size_t)w;
    }
    if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) != 0) {
        fail("cannot give the hook input to the launcher: %s", strerror(errno));
    }
    close(fd);
    setenv("SHELLGATE_NO_SERVER", "1", 1);
    run_script();
}

/* The server's run directory, decided as the launcher script and Places.java decide it; NULL when
 * only the password database could tell (the script then decides). */
static char *run_dir(void) {
    const char *v = getenv("SHELLGATE_RUN_DIR");
    if (absolute(v)) {
        return strdup(v);
    }
    struct stat st;
    v = getenv("XDG_RUNTIME_DIR");
    if (absolute(v) && stat(v, &st) == 0 && S_ISDIR(st.st_mode)) {
        return concat(v, "/shellgate");
    }
    v = getenv("XDG_STATE_HOME");
    if (absolute(v)) {
        return concat(v, "/shellgate/run");
    }
    v = getenv("HOME");
    if (absolute(v)) {
        return concat(v, "/.local/state/shellgate/run");
    }
    return NULL;
}

/* The first line of one of the server's files in dir, at most max bytes, into out; 0 unless the
 * file is this user's, a regular file nobody else may write, and not a link (in a directory another
 * user may write, that user could link this user's own files to each other). */
static int read_private(const char *dir, const char *name, char *out, size_t max) {
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        return 0;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        return 0;
    }
    struct stat st;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022)) {
        n = read(fd, out, max);
    }
    close(fd);
    if (n <= 0 || (size_t)n >= max) {
        return 0;
    }
    out[n] = '\0';
    char *nl = strchr(out, '\n');
    if (nl) {
        *nl = '\0';
    }
    return 1;
}

static int all_of(const char *s, const char *allowed, size_t len) {
    return strlen(s) == len && strspn(s, allowed) == len;
}

/* Reads the hook's input (all of standard input, at most MAX_INPUT bytes). */
static void read_input(struct buf *input) {
    for (;;) {
        reserve(input, 65536);
        ssize_t n = read(0, input->p + input->len, input->cap - input->len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            fail("cannot read the hook input: %s", strerror(errno));
        }
        if (n == 0) {
            return;
        }
        input->len += (size_t)n;
        if (input->len > MAX_INPUT) {
            fail("the hook input is larger than 1 MiB");
        }
    }
}

static int write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return 0;
        }
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* Milliseconds since an arbitrary point. */
static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Bytes read from a server since this was last set to 0, and whether its connection ended (closed or
 * failed, not merely silent) meanwhile: a kept connection that ended having given nothing may be retried. */
static size_t bytes_from_server;
static int connection_ended;

/* One line from the server (without its newline) into reply, moving what came after it to the
 * start; 0 when none came whole within timeout_ms of silence. */
static int read_line(int fd, struct buf *reply, int timeout_ms) {
    if (reply->len && memchr(reply->p, '\n', reply->len)) {
        return 1;
    }
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, timeout_ms);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return 0;
        }
        reserve(reply, 8192);
        ssize_t n = read(fd, reply->p + reply->len, reply->cap - reply->len - 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            connection_ended = 1;
            return 0;
        }
        bytes_from_server += (size_t)n;
        char *nl = memchr(reply->p + reply->len, '\n', (size_t)n);
        reply->len += (size_t)n;
        if (nl) {
            return 1;
        }
        if (reply->len > MAX_REPLY) {
            return 0;
        }
    }
}

/* The number after "seconds": in an interim line, or -1. */
static long interim_seconds(const char *line) {
    const char *at = strstr(line, ",\"seconds\":");
    if (!at) {
        return -1;
    }
    at += strlen(",\"seconds\":");
    long n = 0;
    int digits = 0;
    while (*at >= '0' && *at <= '9' && digits < 4) {
        n = n * 10 + (*at++ - '0');
        digits++;
    }
    return digits == 0 || digits > 3 ? -1 : n;
}

/* Whether this process serves a whole agent session (--serve): its standard output is a line protocol. */
static int serving;

/* In --serve, tells the plugin that the answer may take up to seconds more (its deadline moves). */
static void announce_wait(int seconds) {
    if (serving) {
        char line[64];
        int n = snprintf(line, sizeof line, "{\"wait\":%d}\n", seconds);
        if (!write_all(1, line, (size_t)n)) {
            exit(2);
        }
    }
}

/* The server's answer line (without its newline) into answer. Interim lines before it
 * ({"v":1,"pending":STEP,"seconds":N,"proof":...}, with this server's proof) say that a review step
 * may take up to N seconds: the wait for the next line is then that long, never longer than
 * MAX_WAIT_MS. 0 when no answer came in time. */
static int read_reply(int fd, const char *proof, struct buf *answer) {
    struct buf in = {0};
    int timeout = FIRST_LINE_MS;
    char proven[128];
    snprintf(proven, sizeof proven, ",\"proof\":\"%s\"}", proof);
    for (int lines = 0; lines < 8; lines++) {
        if (!read_line(fd, &in, timeout)) {
            return 0;
        }
        char *nl = memchr(in.p, '\n', in.len);
        size_t n = (size_t)(nl - in.p);
        *nl = '\0';
        static const char pending[] = "{\"v\":1,\"pending\":\"";
        if (strncmp(in.p, pending, sizeof pending - 1) != 0) {
            put(answer, in.p, n);
            reserve(answer, 1);
            answer->p[answer->len] = '\0';
            return 1;
        }
        long seconds = interim_seconds(in.p);
        size_t plen = strlen(proven);
        if (seconds < 0 || n < plen || strcmp(in.p + n - plen, proven) != 0) {
            return 0;
        }
        timeout = seconds * 1000 > MAX_WAIT_MS ? MAX_WAIT_MS : (int)(seconds * 1000);
        announce_wait(timeout / 1000);
        memmove(in.p, nl + 1, in.len - n - 1);
        in.len -= n + 1;
    }
    return 0;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put_utf8(struct buf *b, unsigned long cp) {
    char e[4];
    size_t n;
    if (cp < 0x80) {
        e[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        e[0] = (char)(0xc0 | (cp >> 6));
        e[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        e[0] = (char)(0xe0 | (cp >> 12));
        e[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        e[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        e[0] = (char)(0xf0 | (cp >> 18));
        e[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        e[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        e[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    put(b, e, n);
}

static int four_hex(const char *s, unsigned long *out) {
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(s[i]);
        if (h < 0) {
            return 0;
        }
        v = v * 16 + (unsigned long)h;
    }
    *out = v;
    return 1;
}

/* A JSON string at *at (its opening quote), decoded into out; *at moves past its closing quote.
 * 0 when it is not a whole, well-formed string. */
static int take_string(const char **at, struct buf *out) {
    const char *s = *at;
    if (*s++ != '"') {
        return 0;
    }
    for (;;) {
        unsigned char c = (unsigned char)*s;
        if (c == '\0' || c < 0x20) {
            return 0;
        }
        if (c == '"') {
            *at = s + 1;
            return 1;
        }
        if (c != '\\') {
            const char *run = s;
            while (*s && *s != '"' && *s != '\\' && (unsigned char)*s >= 0x20) {
                s++;
            }
            put(out, run, (size_t)(s - run));
            continue;
        }
        s++;
        char e = *s++;
        switch (e) {
            case '"': put(out, "\"", 1); break;
            case '\\': put(out, "\\", 1); break;
            case '/': put(out, "/", 1); break;
            case 'b': put(out, "\b", 1); break;
            case 'f': put(out, "\f", 1); break;
            case 'n': put(out, "\n", 1); break;
            case 'r': put(out, "\r", 1); break;
            case 't': put(out, "\t", 1); break;
            case 'u': {
                unsigned long cp, low;
                if (!four_hex(s, &cp)) {
                    return 0;
                }
                s += 4;
                if (cp >= 0xd800 && cp < 0xdc00) {
                    if (s[0] != '\\' || s[1] != 'u' || !four_hex(s + 2, &low) || low < 0xdc00 || low >= 0xe000) {
                        return 0;
                    }
                    s += 6;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                } else if (cp >= 0xdc00 && cp < 0xe000) {
                    return 0;
                }
                put_utf8(out, cp);
                break;
            }
            default: return 0;
        }
    }
}

static int take(const char **at, const char *literal) {
    size_t n = strlen(literal);
    if (strncmp(*at, literal, n) != 0) {
        return 0;
    }
    *at += n;
    return 1;
}

/* The server's answer to a hook request, {"v":1,"exit":N,"stdout":"...","stderr":"...","proof":"..."}:
 * 0 unless it is exactly that, with this server's proof. */
static int decode_answer(const char *reply, const char *proof, int *code, struct buf *out, struct buf *err) {
    const char *at = reply;
    if (!take(&at, "{\"v\":1,\"exit\":")) {
        return 0;
    }
    int n = 0, digits = 0;
    while (*at >= '0' && *at <= '9' && digits < 4) {
        n = n * 10 + (*at++ - '0');
        digits++;
    }
    if (digits == 0 || digits > 3 || n > 255) {
        return 0;
    }
    if (!take(&at, ",\"stdout\":") || !take_string(&at, out) || !take(&at, ",\"stderr\":") || !take_string(&at, err)
            || !take(&at, ",\"proof\":\"") || !take(&at, proof) || !take(&at, "\"}") || *at != '\0') {
        return 0;
    }
    *code = n;
    return 1;
}

/* The directory the agent started this hook in: $PWD when it names the current directory (as bash
 * takes it), else the physical one. */
static char *current_dir(void) {
    const char *pwd = getenv("PWD");
    struct stat a, b;
    if (absolute(pwd) && stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
        return strdup(pwd);
    }
    char *cwd = getcwd(NULL, 0);
    if (!cwd) {
        fail("cannot tell the current directory: %s", strerror(errno));
    }
    return cwd;
}

/* A server this user's files name and that this program believes. */
struct server {
    int fd;
    char token[80], proof[80];
};

/* Reads and checks what the run directory says of its server, into s and *port, without connecting;
 * 0 when there is none to believe or ask (no run directory without the password database, files that
 * are not this user's alone or are links, a server older than shellgate.jar beside this program): the
 * launcher script then says why, asks a stale server to stop, or starts one. */
static int believe_server(const char *dir, struct server *s, long *port) {
    const char *no_server = getenv("SHELLGATE_NO_SERVER");
    char *run = run_dir();
    if ((no_server && *no_server) || !run) {
        return 0;
    }
    struct stat st;
    char port_text[32];
    if (stat(run, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)
            || !read_private(run, "server.port", port_text, sizeof port_text)
            || !read_private(run, "server.token", s->token, sizeof s->token)
            || !read_private(run, "server.proof", s->proof, sizeof s->proof)
            || !all_of(port_text, "0123456789", strlen(port_text)) || strlen(port_text) == 0 || strlen(port_text) > 5
            || !all_of(s->token, "0123456789abcdef", 64) || !all_of(s->proof, "0123456789abcdef", 64)) {
        /* the script says why when the files are this user's but open to others */
        return 0;
    }
    *port = strtol(port_text, NULL, 10);
    if (*port < 1 || *port > 65535) {
        return 0;
    }
    /* a server started before this shellgate.jar was built runs old code: the script asks it to stop */
    char *jar = concat(dir, "/shellgate.jar");
    char *port_file = concat(run, "/server.port");
    struct stat js, ps;
    int stale = stat(jar, &js) == 0 && lstat(port_file, &ps) == 0
            && (js.st_mtim.tv_sec > ps.st_mtim.tv_sec
                || (js.st_mtim.tv_sec == ps.st_mtim.tv_sec && js.st_mtim.tv_nsec > ps.st_mtim.tv_nsec));
    free(jar);
    free(port_file);
    return !stale;
}

/* A new connection to the server's port on the loopback, as s->fd; 0 when none. */
static int connect_server(long port, struct server *s) {
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        if (s->fd >= 0) {
            close(s->fd);
        }
        s->fd = -1;
        return 0;
    }
    return 1;
}

/* Connects to the server the run directory names (believe_server, connect_server); 0 when there is none. */
static int open_server(const char *dir, struct server *s) {
    long port;
    return believe_server(dir, s, &port) && connect_server(port, s);
}

/* The hook request for input, with the server's token, as the launcher script's sg_hook_relay writes it. */
static void hook_request(const struct buf *input, const char *token, struct buf *request) {
    char *cwd = current_dir();
    char caller[32];
    snprintf(caller, sizeof caller, "%ld", (long)getppid());
    puts_(request, "{\"v\":1,\"op\":\"hook\",\"agent\":");
    put_json(request, agent, strlen(agent));
    puts_(request, ",\"caller\":");
    puts_(request, caller);
    puts_(request, ",\"cwd\":");
    put_json(request, cwd, strlen(cwd));
    free(cwd);
    puts_(request, ",\"input\":");
    put_json(request, input->p ? input->p : "", input->len);
    puts_(request, ",\"environ\":[");
    for (char **e = environ; *e; e++) {
        if (e != environ) {
            put(request, ",", 1);
        }
        put_json(request, *e, strlen(*e));
    }
    puts_(request, "],\"interim\":true,\"token\":\"");
    puts_(request, token);
    puts_(request, "\"}\n");
}

/* One exchange with a server open_server believed: 1 with the answer's exit code, stdout and stderr
 * when it gave one with its proof; 0 when it did not answer in time or not believably. */
static int exchange(struct server *server, const struct buf *input, int *code, struct buf *out, struct buf *err) {
    struct buf request = {0}, reply = {0};
    hook_request(input, server->token, &request);
    bytes_from_server = 0;
    connection_ended = 0;
    int sent = write_all(server->fd, request.p, request.len);
    connection_ended |= !sent;
    int answered = sent && read_reply(server->fd, server->proof, &reply) && decode_answer(reply.p, server->proof, code, out, err);
    free(request.p);
    free(reply.p);
    return answered;
}

static int ask_server(struct server *server, const struct buf *input, int *code, struct buf *out, struct buf *err) {
    int answered = exchange(server, input, code, out, err);
    close(server->fd);
    return answered;
}

static int serve_main(const char *dir);

static void print_usage(void) {
    printf("Usage: shellgate-hook AGENT           (AGENT: claude-code, gemini-cli, codex, qwen-code, copilot-cli,\n"
           "       shellgate-hook --serve AGENT    opencode, kilo or pi)\n"
           "An agent's pre-tool hook: the same as `shellgate hook AGENT` (see shellgate hook --help for the\n"
           "agents' settings), relayed to the warm judge server without starting bash. Where no server\n"
           "answers, it runs the shellgate script beside it, which judges in a JVM of its own.\n"
           "--serve: one process for a whole agent session (shellgate's OpenCode, Kilo and Pi plugins start it):\n"
           "each line of standard input is one hook input, answered by one line\n"
           "{\"exit\":N,\"stdout\":\"...\",\"stderr\":\"...\"}, after lines {\"wait\":SECONDS} while it may take longer;\n"
           "every line is relayed and checked as a call of its own would be. It ends at the end of its input.\n");
}

static int hook_main(int argc, char **argv, const char *dir) {
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        print_usage();
        return 0;
    }
    int serve = argc == 3 && strcmp(argv[1], "--serve") == 0;
    const char *name = serve ? argv[2] : argc == 2 ? argv[1] : NULL;
    int known = 0;
    for (int i = 0; name && agents[i]; i++) {
        known |= strcmp(name, agents[i]) == 0;
    }
    if (!known) {
        fail("shellgate-hook needs one argument, the agent (or --serve and the agent): claude-code, gemini-cli, codex,"
             " qwen-code, copilot-cli, opencode, kilo or pi (got %s)",
             name ? name : argc < 2 ? "none" : "more than one");
    }
    agent = name;
    if (serve) {
        return serve_main(dir);
    }
    struct server server;
    if (!open_server(dir, &server)) {
        run_script();
    }
    struct buf input = {0}, out = {0}, err = {0};
    read_input(&input);
    int code = 2;
    if (!ask_server(&server, &input, &code, &out, &err)) {
        /* the server was asked and did not answer (stopped, stuck) or not believably: the script
         * judges in a JVM of its own without asking it again, which would wait as long once more */
        run_script_with(&input);
    }
    if (!write_all(1, out.p ? out.p : "", out.len)) {
        fail("cannot write the hook's answer: %s", strerror(errno));
    }
    write_all(2, err.p ? err.p : "", err.len);
    return code;
}

/* ------------------------------------------------------------------------------------------------
 * shellgate-hook --serve AGENT: one process for an agent session, for a plugin that would otherwise
 * start shellgate-hook for every tool call. Each line of standard input is one hook input, handled
 * as `shellgate-hook AGENT` handles its whole input: the run directory believed afresh, the server
 * asked with its token and believed only with its proof, the same time budgets, and where a single
 * call would run the launcher script, the script run as a child with the input as its standard
 * input, its output and exit code taken for the answer. One request at a time, in order.
 * ---------------------------------------------------------------------------------------------- */

/* (seconds) the most the launcher script may take when it judges on its own, as a plugin is told:
 * a JVM's start and judge, then a review as long as the server's longest */
#define SCRIPT_WAIT_S (MAX_WAIT_MS / 1000)

/* The launcher script's answer to one input, as a single call that hands over to it gives it: its
 * standard output, standard error and exit code (2 when it could not run or ended by a signal, as
 * a hook's own failure). unanswered: a server was asked and gave no believable answer. */
static int script_answer(const struct buf *input, int unanswered, struct buf *out, struct buf *err) {
    int in = memfd_create("shellgate-hook-input", MFD_CLOEXEC);
    int o = memfd_create("shellgate-hook-stdout", MFD_CLOEXEC);
    int e = memfd_create("shellgate-hook-stderr", MFD_CLOEXEC);
    if (in < 0 || o < 0 || e < 0 || !write_all(in, input->p ? input->p : "", input->len) || lseek(in, 0, SEEK_SET) != 0) {
        puts_(err, "shellgate: cannot keep the hook input for the launcher\n");
        return 2;
    }
    announce_wait(SCRIPT_WAIT_S);
    pid_t pid = fork();
    if (pid == 0) {
        if (dup2(in, 0) != 0 || dup2(o, 1) != 1 || dup2(e, 2) != 2) {
            _exit(2);
        }
        if (unanswered) {
            setenv("SHELLGATE_NO_SERVER", "1", 1);
        }
        sigaction(SIGPIPE, &pipe_at_start, NULL);
        char *const args[] = {(char *)script_path, "hook", (char *)agent, NULL};
        execv(script_path, args);
        dprintf(2, "shellgate: cannot run %s: %s\n", script_path, strerror(errno));
        _exit(2);
    }
    int status = 0, code = 2;
    if (pid > 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    } else {
        puts_(err, "shellgate: cannot start the launcher: ");
        puts_(err, strerror(errno));
        puts_(err, "\n");
    }
    int fds[2] = {o, e};
    struct buf *into[2] = {out, err};
    for (int i = 0; i < 2; i++) {
        lseek(fds[i], 0, SEEK_SET);
        for (;;) {
            reserve(into[i], 65536);
            ssize_t n = read(fds[i], into[i]->p + into[i]->len, into[i]->cap - into[i]->len);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                break;
            }
            into[i]->len += (size_t)n;
        }
    }
    close(in);
    close(o);
    close(e);
    return code;
}

/* The answer to one input: what `shellgate-hook AGENT` would print and exit with. */
/* The connection of the last line the server answered, kept for the next line while it is younger than
 * KEEP_MS (the server closes a connection quiet for 10 s): a new connection for every line cost its
 * connect and the server's accept, a fifth of a plugin's round trip. It is used only for the server the
 * run directory names when the next line comes (the same port, token and proof, its files believed
 * again); a kept connection that the server closed meanwhile, having answered nothing, is replaced by a
 * new one once. */
#define KEEP_MS 5000
static struct server kept = {.fd = -1};
static long kept_port;
static long long kept_at;

static void drop_kept(void) {
    if (kept.fd >= 0) {
        close(kept.fd);
        kept.fd = -1;
    }
}

static int serve_one(const char *dir, const struct buf *input, struct buf *out, struct buf *err) {
    if (input->len > MAX_INPUT) {
        puts_(err, "shellgate: the hook input is larger than 1 MiB\n");
        return 2;
    }
    struct server server;
    long port;
    if (!believe_server(dir, &server, &port)) {
        drop_kept();
        return script_answer(input, 0, out, err);
    }
    int reused = kept.fd >= 0 && now_ms() - kept_at < KEEP_MS && port == kept_port && strcmp(kept.token, server.token) == 0
                 && strcmp(kept.proof, server.proof) == 0;
    if (reused) {
        server.fd = kept.fd;
        kept.fd = -1;
    } else {
        drop_kept();
        if (!connect_server(port, &server)) {
            return script_answer(input, 0, out, err);
        }
    }
    int code = 2;
    int answered = exchange(&server, input, &code, out, err);
    if (!answered && reused && connection_ended && bytes_from_server == 0) {
        /* closed by the server while it was kept: the request never reached a judge */
        close(server.fd);
        out->len = 0;
        err->len = 0;
        answered = connect_server(port, &server) && exchange(&server, input, &code, out, err);
    }
    if (!answered) {
        if (server.fd >= 0) {
            close(server.fd);
        }
        out->len = 0;
        err->len = 0;
        return script_answer(input, 1, out, err);
    }
    kept = server;
    kept_port = port;
    kept_at = now_ms();
    return code;
}

/* Writes one answer line; 0 when the plugin is gone. */
static int write_answer(int code, const struct buf *out, const struct buf *err) {
    struct buf answer = {0};
    char number[16];
    snprintf(number, sizeof number, "%d", code);
    puts_(&answer, "{\"exit\":");
    puts_(&answer, number);
    puts_(&answer, ",\"stdout\":");
    put_json(&answer, out->p ? out->p : "", out->len);
    puts_(&answer, ",\"stderr\":");
    put_json(&answer, err->p ? err->p : "", err->len);
    puts_(&answer, "}\n");
    int written = write_all(1, answer.p, answer.len);
    free(answer.p);
    return written;
}

static int serve_main(const char *dir) {
    serving = 1;
    struct buf in = {0};
    size_t scanned = 0;
    int skipping = 0; /* in the rest of a line longer than MAX_INPUT, already refused */
    for (;;) {
        char *nl = in.len > scanned ? memchr(in.p + scanned, '\n', in.len - scanned) : NULL;
        if (!nl) {
            scanned = in.len;
            if (in.len > MAX_INPUT) {
                /* as a single call refuses such an input; the rest of the line is read and dropped */
                struct buf none = {0}, err = {0};
                puts_(&err, "shellgate: the hook input is larger than 1 MiB\n");
                if (!skipping && !write_answer(2, &none, &err)) {
                    return 2;
                }
                free(err.p);
                skipping = 1;
                in.len = 0;
                scanned = 0;
            }
            reserve(&in, 65536);
            ssize_t n = read(0, in.p + in.len, in.cap - in.len);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                return n < 0 ? 2 : 0;
            }
            in.len += (size_t)n;
            continue;
        }
        size_t len = (size_t)(nl - in.p);
        if (!skipping) {
            struct buf line = {0}, out = {0}, err = {0};
            put(&line, in.p, len);
            int code = serve_one(dir, &line, &out, &err);
            if (!write_answer(code, &out, &err)) {
                return 2;
            }
            free(line.p);
            free(out.p);
            free(err.p);
        }
        skipping = 0;
        memmove(in.p, nl + 1, in.len - len - 1);
        in.len -= len + 1;
        scanned = 0;
    }
}

/* ------------------------------------------------------------------------------------------------
 * The drop-in shell: shellgate [OPTIONS] -c COMMAND [NAME [ARG...]], as the launcher script's
 * option loop, sg_request, the exchange and the reply handling after it do it.
 * ---------------------------------------------------------------------------------------------- */

static int shell_argc;
static char **shell_argv;

/* Runs the launcher script with the same arguments after MARKER (see the top of this file). */
static _Noreturn void hand_over(const char *marker) {
    sigaction(SIGPIPE, &pipe_at_start, NULL);
    char **argv = calloc((size_t)shell_argc + 2, sizeof *argv);
    if (!argv) {
        fail("out of memory");
    }
    argv[0] = (char *)script_path;
    argv[1] = (char *)marker;
    for (int i = 1; i < shell_argc; i++) {
        argv[i + 1] = shell_argv[i];
    }
    execv(script_path, argv);
    fprintf(stderr, "shellgate: cannot run %s: %s\n", script_path, strerror(errno));
    exit(126);
}

/* The drop-in shell's invocation, as the script's option loop reads it. */
struct invocation {
    const char *shell, *agent, *command;
    char **flags; /* the real shell's own options, passed on */
    int nflags;
    char **rest; /* NAME ARG... after the command */
    int nrest;
};

static int is(const char *a, const char *b) {
    return strcmp(a, b) == 0;
}

/* 1 when the arguments are a -c invocation the script would run through the server; 0 for
 * everything else (subcommands, a script file, commands on standard input, usage errors), which the
 * script handles itself. */
static int parse_shell_args(int argc, char **argv, struct invocation *v) {
    static const char *const subcommands[] = {
        "check", "explain", "policy", "serve", "doctor", "wrap", "attach", "hook", "setup", "approvals", "log",
        "shell", "help", "--help", "-h", "--version", "-V", NULL,
    };
    if (argc < 2 || strncmp(argv[1], "__", 2) == 0) {
        return 0;
    }
    for (int i = 0; subcommands[i]; i++) {
        if (is(argv[1], subcommands[i])) {
            return 0;
        }
    }
    v->flags = calloc((size_t)argc * 2 + 1, sizeof *v->flags);
    if (!v->flags) {
        fail("out of memory");
    }
    int i = 1, cmd_mode = 0;
    while (i < argc) {
        const char *a = argv[i];
        if (is(a, "--shell") || is(a, "--agent")) {
            if (i + 1 >= argc) {
                return 0;
            }
            *(is(a, "--shell") ? &v->shell : &v->agent) = argv[i + 1];
            i += 2;
        } else if (strncmp(a, "--shell=", 8) == 0) {
            v->shell = a + 8;
            i++;
        } else if (is(a, "--")) {
            i++;
            break;
        } else if (is(a, "--login") || is(a, "--noprofile") || is(a, "--norc") || is(a, "--posix") || is(a, "--verbose")
                   || is(a, "--noediting") || is(a, "--restricted")) {
            v->flags[v->nflags++] = argv[i++];
        } else if (is(a, "--rcfile") || is(a, "--init-file") || is(a, "-o") || is(a, "+o") || is(a, "-O") || is(a, "+O")) {
            if (i + 1 >= argc) {
                return 0;
            }
            v->flags[v->nflags++] = argv[i++];
            v->flags[v->nflags++] = argv[i++];
        } else if (strncmp(a, "--", 2) == 0) {
            return 0;
        } else if ((a[0] == '-' || a[0] == '+') && a[1]) {
            size_t n = strlen(a);
            char *kept = malloc(n + 1);
            if (!kept) {
                fail("out of memory");
            }
            size_t k = 0;
            int takes = 0;
            kept[k++] = a[0];
            for (size_t j = 1; j < n; j++) {
                char letter = a[j];
                if (letter == 'c') {
                    cmd_mode = 1;
                } else if (letter == 's') {
                    /* commands on standard input: -c wins, as in the script */
                } else if (letter == 'o' || letter == 'O') {
                    kept[k++] = letter;
                    takes++;
                } else if (letter && strchr("ilexuvnfhkmprtabBCEHPT", letter)) {
                    kept[k++] = letter;
                } else {
                    return 0;
                }
            }
            kept[k] = '\0';
            i++;
            if (k > 1) {
                v->flags[v->nflags++] = kept;
            }
            for (; takes > 0; takes--) {
                if (i >= argc) {
                    return 0;
                }
                v->flags[v->nflags++] = argv[i++];
            }
        } else {
            break;
        }
    }
    if (!cmd_mode || i >= argc) {
        return 0;
    }
    if (v->shell && !*v->shell) {
        v->shell = NULL;
    }
    if (v->agent && !*v->agent) {
        v->agent = NULL;
    }
    v->command = argv[i];
    v->rest = argv + i + 1;
    v->nrest = argc - i - 1;
    return 1;
}

/* The first line of a small file, into out; 0 when it cannot be read. */
static int first_line(const char *path, char *out, size_t max) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    ssize_t n = read(fd, out, max - 1);
    close(fd);
    if (n < 0) {
        return 0;
    }
    out[n] = '\0';
    char *nl = strchr(out, '\n');
    if (nl) {
        *nl = '\0';
    }
    return 1;
}

/* The terminal of this process as a JSON value (`"/dev/pts/N"` or null), for a person to answer an
 * ask on: only when this process is in its foreground, and never under wrap or with
 * SHELLGATE_ASK_TTY=0 (the script's rule, from /proc/self/stat). */
static void put_tty(struct buf *b) {
    const char *ask = getenv("SHELLGATE_ASK_TTY");
    const char *wrapped = getenv("SHELLGATE_WRAPPED");
    char stat_line[1024];
    if ((ask && is(ask, "0")) || (wrapped && *wrapped) || !first_line("/proc/self/stat", stat_line, sizeof stat_line)) {
        puts_(b, "null");
        return;
    }
    /* the fields after the last ") ": state ppid pgrp session tty_nr tpgid ... */
    char *at = NULL;
    for (char *p = strstr(stat_line, ") "); p; p = strstr(p + 1, ") ")) {
        at = p + 2;
    }
    char *field[6] = {0};
    for (int f = 0; at && f < 6; f++) {
        at += strspn(at, " \t");
        if (!*at) {
            break;
        }
        field[f] = at;
        at += strcspn(at, " \t");
        if (*at) {
            *at++ = '\0';
        }
    }
    if (!field[5] || !field[2] || !is(field[5], field[2])) {
        puts_(b, "null");
        return;
    }
    long nr = strtol(field[4], NULL, 10);
    long major = (nr >> 8) & 0xfff, minor = (nr & 0xff) | ((nr >> 12) & 0xfff00);
    char dev[64];
    struct stat st;
    snprintf(dev, sizeof dev, "/dev/pts/%ld", (major - 136) * 256 + minor);
    if (major >= 136 && major <= 143 && stat(dev, &st) == 0 && S_ISCHR(st.st_mode) && st.st_uid == geteuid()) {
        puts_(b, "\"");
        puts_(b, dev);
        puts_(b, "\"");
    } else {
        puts_(b, "null");
    }
}

/* Whether bash would take $PWD as it is (an absolute path without ".", ".." or doubled slashes);
 * it canonicalises any other, which the script then does for itself. */
static int canonical(const char *pwd) {
    size_t n = strlen(pwd);
    return strstr(pwd, "//") == NULL && strstr(pwd, "/./") == NULL && strstr(pwd, "/../") == NULL
           && !(n >= 2 && strcmp(pwd + n - 2, "/.") == 0) && !(n >= 3 && strcmp(pwd + n - 3, "/..") == 0)
           && !(n > 1 && pwd[n - 1] == '/');
}

/* The script's judge request, without the token and the closing brace; 0 when only the script can
 * write it the same (an environment holding control characters, which it sends as an object). */
static int shell_request(const struct invocation *v, struct buf *r) {
    for (char **e = environ; *e; e++) {
        for (const unsigned char *c = (const unsigned char *)*e; *c; c++) {
            if (*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r') {
                return 0;
            }
        }
    }
    const char *pwd = getenv("PWD");
    if (pwd && absolute(pwd) && !canonical(pwd)) {
        return 0;
    }
    char *cwd = current_dir();
    char number[32], parent[64] = "", path[64];
    puts_(r, "{\"v\":1,\"op\":\"judge\",\"entry\":\"shell-c\",\"brief\":true,\"review\":true,\"interim\":true,"
             "\"origin\":{\"entry\":\"shell-c\",\"pid\":");
    snprintf(number, sizeof number, "%ld", (long)getpid());
    puts_(r, number);
    puts_(r, ",\"detail\":");
    /* who started this shell, for the person reviewing an ask */
    long ppid = (long)getppid();
    snprintf(path, sizeof path, "/proc/%ld/comm", ppid);
    struct buf detail = {0};
    if (first_line(path, parent, sizeof parent) && *parent) {
        snprintf(number, sizeof number, " (pid %ld)", ppid);
        puts_(&detail, parent);
        puts_(&detail, number);
    }
    put_json(r, detail.p ? detail.p : "", detail.len);
    puts_(r, ",\"session\":");
    const char *session = getenv("SHELLGATE_SESSION");
    put_json(r, session ? session : "", session ? strlen(session) : 0);
    puts_(r, "},\"tty\":");
    put_tty(r);
    puts_(r, ",\"cmd\":");
    put_json(r, v->command, strlen(v->command));
    puts_(r, ",\"cwd\":");
    put_json(r, cwd, strlen(cwd));
    puts_(r, ",\"shell\":");
    if (v->shell) {
        put_json(r, v->shell, strlen(v->shell));
    } else {
        puts_(r, "null");
    }
    if (v->agent) {
        puts_(r, ",\"agent\":");
        put_json(r, v->agent, strlen(v->agent));
    }
    /* the positional parameters $1... (NAME is $0) */
    puts_(r, ",\"positional\":[");
    for (int i = 1; v->nrest > 1 && i < v->nrest; i++) {
        if (i > 1) {
            put(r, ",", 1);
        }
        put_json(r, v->rest[i], strlen(v->rest[i]));
    }
    puts_(r, "],\"environ\":[");
    for (char **e = environ; *e; e++) {
        if (e != environ) {
            put(r, ",", 1);
        }
        put_json(r, *e, strlen(*e));
    }
    puts_(r, "]");
    return 1;
}

/* A run of a JSON string's body at *at as the script's regular expression (\\.|[^"\\])* reads it,
 * up to and past its closing quote: its start and length, 0 when no closing quote follows. */
static int raw_string(const char **at, const char **start, size_t *len) {
    const char *s = *at;
    *start = s;
    for (;;) {
        if (*s == '\0') {
            return 0;
        }
        if (*s == '"') {
            *len = (size_t)(s - *start);
            *at = s + 1;
            return 1;
        }
        if (*s == '\\') {
            if (s[1] == '\0') {
                return 0;
            }
            s += 2;
        } else {
            s++;
        }
    }
}

/* The first KEY":"...", as the script's unanchored expression finds it; its body in *start, *len. */
static int find_string(const char *reply, const char *key, const char **start, size_t *len) {
    for (const char *p = strstr(reply, key); p; p = strstr(p + 1, key)) {
        const char *at = p + strlen(key);
        if (raw_string(&at, start, len)) {
            return 1;
        }
    }
    return 0;
}

/* s with every FROM replaced by TO, left to right, as bash's ${s//FROM/TO}. */
static char *replace_all(const char *s, const char *from, const char *to) {
    struct buf b = {0};
    size_t nf = strlen(from);
    for (const char *p; (p = strstr(s, from)); s = p + nf) {
        put(&b, s, (size_t)(p - s));
        puts_(&b, to);
    }
    puts_(&b, s);
    put(&b, "", 1);
    return b.p;
}

static char *span(const char *start, size_t len) {
    char *s = malloc(len + 1);
    if (!s) {
        fail("out of memory");
    }
    memcpy(s, start, len);
    s[len] = '\0';
    return s;
}

/* The script's sg_unjson: \" \n \t \\ undone in that order (\n and \t as spaces), nothing else. */
static char *unjson(const char *start, size_t len) {
    char *s = span(start, len);
    s = replace_all(s, "\\\"", "\"");
    s = replace_all(s, "\\n", " ");
    s = replace_all(s, "\\t", " ");
    return replace_all(s, "\\\\", "\\");
}

static _Noreturn void say_and_exit(const char *line, int code) {
    write_all(2, line, strlen(line));
    exit(code);
}

/* The script's sg_refuse_error, for a policy or no-shell error from the server. */
static _Noreturn void refuse_error(const char *reply) {
    const char *start;
    size_t len;
    char *msg = find_string(reply, "\"message\":\"", &start, &len) ? span(start, len) : strdup(reply);
    msg = replace_all(replace_all(msg, "\\n", "; "), "\\\"", "\"");
    struct buf line = {0};
    if (strstr(reply, "\"error\":\"no-shell\"")) {
        puts_(&line, "shellgate: no shell to run the command: ");
        puts_(&line, msg);
        puts_(&line, "\n");
        put(&line, "", 1);
        say_and_exit(line.p, 127);
    }
    puts_(&line, "shellgate: refused (policy-error): the policy cannot be used: ");
    puts_(&line, msg);
    puts_(&line, "\n");
    put(&line, "", 1);
    say_and_exit(line.p, 126);
}

/* One of WORDS at *at, moved past; its index, -1 when none is there. */
static int take_word(const char **at, const char *const *words) {
    for (int i = 0; words[i]; i++) {
        if (take(at, words[i])) {
            return i;
        }
    }
    return -1;
}

/* A run of [a-z] at *at. */
static void take_lower(const char **at) {
    while (**at >= 'a' && **at <= 'z') {
        (*at)++;
    }
}

/* The server's verdict, read as the script's sg_pattern reads it: the decision and, on a run, exec
 * of the shell it names; else the refusal line and 126. Returns only when the reply is not a
 * verdict the script would act on. */
static void act_on(const struct invocation *v, const char *reply) {
    static const char *const tiers[] = {"allow\"", "ask\"", "deny\"", NULL};
    static const char *const runs[] = {"true", "false", NULL};
    const char *at = reply, *rule, *message, *real, *step, *decided, *ignored;
    size_t rule_len, message_len, real_len, step_len, decided_len, ignored_len;
    if (!take(&at, "{\"v\":1,\"tier\":\"")) {
        return;
    }
    int tier = take_word(&at, tiers);
    if (tier < 0 || !take(&at, ",\"rule\":\"")) {
        return;
    }
    rule = at;
    at += strcspn(at, "\"");
    rule_len = (size_t)(at - rule);
    if (!take(&at, "\",\"message\":\"") || !raw_string(&at, &message, &message_len) || !take(&at, ",\"shell\":\"")
            || !raw_string(&at, &real, &real_len) || !take(&at, ",\"dialect\":\"")) {
        return;
    }
    take_lower(&at);
    if (!take(&at, "\",\"run\":")) {
        return;
    }
    int run = take_word(&at, runs);
    if (run < 0 || !take(&at, ",\"step\":\"")) {
        return;
    }
    step = at;
    take_lower(&at);
    step_len = (size_t)(at - step);
    if (!take(&at, "\",\"decided\":\"") || !raw_string(&at, &decided, &decided_len)) {
        return;
    }
    /* the decision could not be written to the audit log: said on every decision */
    if (find_string(reply, ",\"warning\":\"", &ignored, &ignored_len)) {
        char *w = replace_all(replace_all(span(ignored, ignored_len), "\\\"", "\""), "\\\\", "\\");
        struct buf line = {0};
        puts_(&line, w);
        put(&line, "\n", 1);
        write_all(2, line.p, line.len);
    }
    /* a deny never runs, whatever else the reply says; an ask runs when the review approved it */
    if ((tier == 0 || (tier == 1 && run == 0)) && real_len > 0) {
        char *shell = unjson(real, real_len);
        char **argv = calloc((size_t)v->nflags + (size_t)v->nrest + 4, sizeof *argv);
        if (!argv) {
            fail("out of memory");
        }
        int n = 0;
        argv[n++] = shell;
        for (int i = 0; i < v->nflags; i++) {
            argv[n++] = v->flags[i];
        }
        argv[n++] = "-c";
        argv[n++] = (char *)v->command;
        for (int i = 0; i < v->nrest; i++) {
            argv[n++] = v->rest[i];
        }
        sigaction(SIGPIPE, &pipe_at_start, NULL);
        execvp(shell, argv);
        int code = errno == ENOENT ? 127 : 126;
        fprintf(stderr, "shellgate: cannot run the shell %s: %s\n", shell, strerror(errno));
        exit(code);
    }
    struct buf line = {0};
    puts_(&line, "shellgate: refused (");
    put(&line, rule, rule_len);
    puts_(&line, "): ");
    if (tier == 1 && !(step_len == 5 && strncmp(step, "judge", 5) == 0)) {
        puts_(&line, unjson(decided, decided_len));
    } else {
        puts_(&line, unjson(message, message_len));
    }
    puts_(&line, "\n");
    put(&line, "", 1);
    say_and_exit(line.p, 126);
}

/* ------------------------------------------------------------------ check --batch */

/* as BatchRelay.START_MILLIS: a stopped or stuck server still accepts connections */
#define BATCH_START_MS 5000
/* as RunDirectory.SOCKET_PATH_MAX */
#define SOCKET_PATH_MAX 100

/* Whether s (n bytes) is UTF-8 as a JVM would read it back unchanged; a JVM of its own decides otherwise. */
static int valid_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t more;
        unsigned long cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            more = 1, cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            more = 2, cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            more = 3, cp = c & 0x07;
        } else {
            return 0;
        }
        for (size_t k = 1; k <= more; k++) {
            if (i + k >= n || (s[i + k] & 0xc0) != 0x80) {
                return 0;
            }
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((more == 1 && cp < 0x80) || (more == 2 && cp < 0x800) || (more == 3 && (cp < 0x10000 || cp > 0x10ffff))
                || (cp >= 0xd800 && cp <= 0xdfff)) {
            return 0;
        }
        i += more + 1;
    }
    return 1;
}

/* path made absolute against the working directory and normalized as java.nio's Path.normalize()
 * does (no link followed: "." dropped, ".." takes off the name before it, never above the root) */
static char *normalized(const char *path) {
    char *cwd = NULL;
    if (path[0] != '/') {
        cwd = getcwd(NULL, 0);
        if (!cwd) {
            return NULL;
        }
    }
    char *whole = cwd ? (path[0] ? concat(concat(cwd, "/"), path) : strdup(cwd)) : strdup(path);
    size_t n = strlen(whole);
    char **parts = calloc(n + 1, sizeof *parts);
    char *out = malloc(n + 2);
    if (!parts || !out) {
        fail("out of memory");
    }
    size_t count = 0;
    for (char *save = NULL, *part = strtok_r(whole, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (is(part, ".")) {
            continue;
        }
        if (is(part, "..")) {
            if (count > 0) {
                count--;
            }
            continue;
        }
        parts[count++] = part;
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        out[len++] = '/';
        size_t l = strlen(parts[i]);
        memcpy(out + len, parts[i], l);
        len += l;
    }
    if (len == 0) {
        out[len++] = '/';
    }
    out[len] = '\0';
    return out;
}

/* As PrivateFolder: this user's and writable by nobody else; a file (not followed) no link. */
static int private_entry(const char *path, int directory) {
    struct stat st;
    if ((directory ? stat(path, &st) : lstat(path, &st)) != 0) {
        return 0;
    }
    if (directory ? !S_ISDIR(st.st_mode) : S_ISLNK(st.st_mode)) {
        return 0;
    }
    return st.st_uid == geteuid() && !(st.st_mode & 022);
}

/* A file of the run directory that exists must be private (RunDirectory.problem); one that does not is fine here. */
static int private_if_there(const char *path) {
    struct stat st;
    return lstat(path, &st) != 0 ? errno == ENOENT : private_entry(path, 0);
}

/* The server's Unix socket, connected: where RunDirectory.socket() says, its directory and files
 * believed as RunDirectory.problem() believes them, its server.port not older than shellgate.jar in
 * dir. -1 when there is none to ask. */
static int open_batch_socket(const char *dir) {
    const char *no_server = getenv("SHELLGATE_NO_SERVER");
    char *run = run_dir();
    if ((no_server && *no_server) || !run || !private_entry(run, 1)) {
        return -1;
    }
    char *socket_path = concat(run, "/server.sock");
    if (strlen(socket_path) > SOCKET_PATH_MAX) {
        char elsewhere[4096];
        if (!read_private(run, "server.sockpath", elsewhere, sizeof elsewhere) || elsewhere[0] != '/'
                || strlen(elsewhere) > SOCKET_PATH_MAX) {
            return -1;
        }
        socket_path = strdup(elsewhere);
        char *parent = strdup(elsewhere);
        char *slash = strrchr(parent, '/');
        slash[slash == parent ? 1 : 0] = '\0';
        struct stat st;
        if (lstat(socket_path, &st) == 0 && !private_entry(parent, 1)) {
            return -1;
        }
    }
    static const char *const files[] = {"/server.port", "/server.token", "/server.proof", NULL};
    if (!private_if_there(socket_path)) {
        return -1;
    }
    for (int i = 0; files[i]; i++) {
        if (!private_if_there(concat(run, files[i]))) {
            return -1;
        }
    }
    /* a server started before this shellgate.jar was built runs old code; without a port file, none to compare */
    struct stat js, ps;
    if (lstat(concat(run, "/server.port"), &ps) != 0
            || (stat(concat(dir, "/shellgate.jar"), &js) == 0
                && (js.st_mtim.tv_sec > ps.st_mtim.tv_sec
                    || (js.st_mtim.tv_sec == ps.st_mtim.tv_sec && js.st_mtim.tv_nsec > ps.st_mtim.tv_nsec)))) {
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, socket_path, strlen(socket_path) + 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    return fd;
}

/* BatchRelay.header: the request, with this process's environment as the JVM's would be (the
 * script starts it with SHELLGATE_LAUNCHER naming itself); 0 when an entry is not UTF-8. */
static int batch_request(const char *cwd, const char *dialect, struct buf *r) {
    puts_(r, "{\"v\":1,\"op\":\"batch\",\"interim\":true,\"cwd\":");
    put_json(r, cwd, strlen(cwd));
    puts_(r, ",\"dialect\":");
    put_json(r, dialect, strlen(dialect));
    puts_(r, ",\"env\":{");
    int first = 1;
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || eq == *e || strncmp(*e, "SHELLGATE_LAUNCHER=", 19) == 0) {
            continue;
        }
        if (!valid_utf8((const unsigned char *)*e, strlen(*e))) {
            return 0;
        }
        if (!first) {
            put(r, ",", 1);
        }
        first = 0;
        put_json(r, *e, (size_t)(eq - *e));
        put(r, ":", 1);
        put_json(r, eq + 1, strlen(eq + 1));
    }
    if (!first) {
        put(r, ",", 1);
    }
    put_json(r, "SHELLGATE_LAUNCHER", 18);
    put(r, ":", 1);
    put_json(r, script_path, strlen(script_path));
    puts_(r, "}}\n");
    return valid_utf8((const unsigned char *)cwd, strlen(cwd)) && valid_utf8((const unsigned char *)dialect, strlen(dialect));
}

/* Whether the server started the batch ({"v":1,"batch":true}) within BATCH_START_MS, or as long as
 * interim lines say it builds its judge; what came after that line stays in rest. */
static int batch_started(int fd, struct buf *rest) {
    long long deadline = now_ms() + BATCH_START_MS;
    for (int lines = 0; lines < 8; lines++) {
        long long left = deadline - now_ms();
        if (left <= 0 || !read_line(fd, rest, (int)left)) {
            return 0;
        }
        char *nl = memchr(rest->p, '\n', rest->len);
        size_t n = (size_t)(nl - rest->p);
        *nl = '\0';
        static const char started[] = "{\"v\":1,\"batch\":true}";
        static const char pending[] = "{\"v\":1,\"pending\":\"judge\",\"seconds\":";
        int go = n == sizeof started - 1 && memcmp(rest->p, started, n) == 0;
        long seconds = -1;
        if (!go && n > sizeof pending && strncmp(rest->p, pending, sizeof pending - 1) == 0 && rest->p[n - 1] == '}') {
            seconds = interim_seconds(rest->p);
            size_t digits = n - (sizeof pending - 1) - 1;
            if (digits < 1 || digits > 3 || strspn(rest->p + sizeof pending - 1, "0123456789") != digits) {
                seconds = -1;
            }
        }
        memmove(rest->p, nl + 1, rest->len - n - 1);
        rest->len -= n + 1;
        if (go) {
            return 1;
        }
        if (seconds < 0) {
            return 0;
        }
        deadline = now_ms() + (seconds + 5) * 1000;
    }
    return 0;
}

/* Standard input to the server, its answers to standard output until its end mark (a NUL where a
 * line would start); the exit code: 0, or 4 when the connection ended first (BatchRelay.stream). */
static int batch_stream(int fd, struct buf *first) {
    char in[65536], out[65536];
    size_t in_len = 0, in_at = 0;
    int in_open = 1, line_start = 1;
    size_t out_len = first->len;
    if (out_len > sizeof out) {
        /* a reply line and more than 64 KiB of answers in one read: not what a server sends */
        fprintf(stderr, "shellgate check: the judge server's connection failed: an unexpected reply\n");
        return 4;
    }
    if (out_len) {
        memcpy(out, first->p, out_len);
    }
    for (;;) {
        /* what came from the server, up to its end mark */
        for (size_t i = 0; i < out_len; i++) {
            if (line_start && out[i] == '\0') {
                if (!write_all(1, out, i)) {
                    fprintf(stderr, "shellgate check: cannot write the answers: %s\n", strerror(errno));
                    return 4;
                }
                return 0;
            }
            line_start = out[i] == '\n';
        }
        if (out_len && !write_all(1, out, out_len)) {
            fprintf(stderr, "shellgate check: cannot write the answers: %s\n", strerror(errno));
            return 4;
        }
        out_len = 0;
        struct pollfd p[2] = {{.fd = fd, .events = POLLIN | (in_at < in_len ? POLLOUT : 0)},
                              {.fd = in_open && in_at == in_len ? 0 : -1, .events = POLLIN}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            fprintf(stderr, "shellgate check: the judge server's connection failed: %s\n", strerror(errno));
            return 4;
        }
        if (p[1].revents) {
            ssize_t n = read(0, in, sizeof in);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                fprintf(stderr, "shellgate check: cannot read standard input: %s\n", strerror(errno));
                return 4;
            }
            if (n == 0) {
                in_open = 0;
                shutdown(fd, SHUT_WR);
            } else {
                in_len = (size_t)n;
                in_at = 0;
            }
        }
        if (p[0].revents & POLLOUT) {
            ssize_t w = send(fd, in + in_at, in_len - in_at, MSG_DONTWAIT | MSG_NOSIGNAL);
            if (w < 0 && errno != EAGAIN && errno != EINTR) {
                /* the server went away: what it answered is read below, then the early end is said */
                in_open = 0;
                in_at = in_len = 0;
            } else if (w > 0) {
                in_at += (size_t)w;
            }
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(fd, out, sizeof out);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                fprintf(stderr, "shellgate check: the judge server's connection failed: %s\n", strerror(errno));
                return 4;
            }
            if (n == 0) {
                fprintf(stderr, "shellgate check: the judge server stopped before every line was answered; judge the "
                                "rest with SHELLGATE_NO_SERVER=1\n");
                return 4;
            }
            out_len = (size_t)n;
        }
    }
}

/* check --batch with no option but --cwd and --dialect (as BatchRelay.Simple), relayed to a server
 * this program believes; returns only when it does not apply, for the script to do as it would. */
static void batch_main(int argc, char **argv, const char *dir) {
    const char *cwd_arg = "", *dialect = "bash";
    int batch = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (is(a, "--batch")) {
            batch = 1;
        } else if (is(a, "--cwd") && i + 1 < argc) {
            cwd_arg = argv[++i];
        } else if (is(a, "--dialect") && i + 1 < argc) {
            dialect = argv[++i];
        } else if (strncmp(a, "--cwd=", 6) == 0) {
            cwd_arg = a + 6;
        } else if (strncmp(a, "--dialect=", 10) == 0) {
            dialect = a + 10;
        } else {
            return;
        }
    }
    struct stat st;
    char *cwd = batch ? normalized(cwd_arg) : NULL;
    if (!cwd || stat(cwd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return;
    }
    struct buf request = {0}, rest = {0};
    if (!batch_request(cwd, dialect, &request)) {
        return;
    }
    int fd = open_batch_socket(dir);
    if (fd < 0) {
        return;
    }
    if (!write_all(fd, request.p, request.len) || !batch_started(fd, &rest)) {
        /* refused or silent: a JVM of its own judges the batch, its input unread */
        close(fd);
        return;
    }
    exit(batch_stream(fd, &rest));
}

static int shell_main(int argc, char **argv, const char *dir) {
    shell_argc = argc;
    shell_argv = argv;
    if (argc > 1 && strncmp(argv[1], "__relayed", 9) == 0) {
        /* handed back to by itself: the file beside it named shellgate is this program, not the
         * script. A hook fails with 2, which blocks the tool call; anything else as the script's
         * own failures do. */
        fprintf(stderr, "shellgate: %s is not the launcher script (it is this program); reinstall shellgate\n", script_path);
        exit(argc > 2 && is(argv[2], "hook") ? 2 : 4);
    }
    if (argc > 2 && is(argv[1], "check")) {
        batch_main(argc, argv, dir);
    }
    struct invocation v = {0};
    struct buf request = {0};
    struct server server;
    if (!parse_shell_args(argc, argv, &v) || !shell_request(&v, &request) || !open_server(dir, &server)) {
        hand_over("__relayed");
    }
    puts_(&request, ",\"token\":\"");
    puts_(&request, server.token);
    puts_(&request, "\"}\n");
    struct buf reply = {0};
    int answered = write_all(server.fd, request.p, request.len) && read_reply(server.fd, server.proof, &reply);
    close(server.fd);
    char proven[128];
    snprintf(proven, sizeof proven, ",\"proof\":\"%s\"", server.proof);
    if (answered && strstr(reply.p, proven)) {
        /* the server read the policy and found it broken: a JVM of the script's own would find the same */
        if (strncmp(reply.p, "{\"v\":1,\"error\":\"policy\"", 23) == 0
                || strncmp(reply.p, "{\"v\":1,\"error\":\"no-shell\"", 25) == 0) {
            refuse_error(reply.p);
        }
        act_on(&v, reply.p);
    }
    /* no answer, or none the script would act on: it judges in a JVM of its own, without asking again */
    hand_over("__relayed-unanswered");
}

int main(int argc, char **argv) {
    sigaction(SIGPIPE, NULL, &pipe_at_start);
    char *dir = own_dir();
    script_path = concat(dir, "/shellgate");
    signal(SIGPIPE, SIG_IGN);
    const char *name = argc > 0 ? strrchr(argv[0], '/') : NULL;
    name = name ? name + 1 : argc > 0 ? argv[0] : "";
    /* the hook relay only under its own name: any other (shellgate, a link of the user's own, a login
     * shell's -shellgate) is the drop-in shell, which hands whatever it does not relay to the script */
    if (strcmp(name, "shellgate-hook") == 0) {
        return hook_main(argc, argv, dir);
    }
    return shell_main(argc, argv, dir);
}
