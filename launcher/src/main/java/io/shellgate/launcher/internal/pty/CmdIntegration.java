package io.shellgate.launcher.internal.pty;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * cmd has no line editor hook, so the proxy keeps the line itself ({@link CmdLine}) and gives cmd a
 * line only once it is allowed. cmd's prompt is prefixed with an OSC 9;9 mark carrying its current
 * directory ({@code $E]9;9;$P$E\}, the mark Windows Terminal uses too): the proxy reads the
 * directory from it and knows a prompt is shown. Variables are those cmd was started with.
 */
public final class CmdIntegration implements Integration {

    /** What goes before the user's own prompt ({@code $P$G} when they have none). */
    static final String MARK = "$E]9;9;$P$E\\";

    private LocalChannel channel;
    private Path startDir;
    private Map<String, String> startEnv;

    @Override
    public HookChannel channel(Path dir) {
        channel = new LocalChannel();
        return channel;
    }

    @Override
    public void install(Path dir) {
        // nothing to write: cmd is told through its PROMPT variable
    }

    @Override
    public List<String> command(String shell, Path dir, boolean login) {
        return List.of(shell);
    }

    @Override
    public Map<String, String> env(Path dir, Map<String, String> userEnv) {
        String prompt = userEnv.getOrDefault("PROMPT", "$P$G");
        return Map.of("PROMPT", MARK + prompt);
    }

    @Override
    public LineEditor editor(Path cwd, Map<String, String> env, Screen screen, EscapeWatch watch) {
        this.startDir = cwd;
        this.startEnv = env;
        return new Editor(screen, watch);
    }

    /** The proxy-side line editing for cmd. */
    private final class Editor implements LineEditor {

        private final Screen screen;
        private final EscapeWatch watch;
        private final CmdLine line;
        private final ByteArrayOutputStream osc = new ByteArrayOutputStream();
        private volatile Path cwd = startDir;
        private OutputStream shell;
        private long seq;
        private boolean waiting;

        Editor(Screen screen, EscapeWatch watch) {
            this.screen = screen;
            this.watch = watch;
            this.line = new CmdLine(screen::say, this::submit);
        }

        @Override
        public synchronized void keys(byte[] buf, int len, OutputStream shell) {
            this.shell = shell;
            if (!waiting) {
                line.feed(buf, len);
            }
        }

        private void submit(String text) {
            if (text.isBlank()) {
                send("\r");
                return;
            }
            waiting = true;
            long s = ++seq;
            StringBuilder m = new StringBuilder("check\0").append(s).append('\0').append(text).append('\0').append(cwd).append('\0');
            startEnv.forEach((k, v) -> m.append(k).append('=').append(v).append('\0'));
            int width = text.codePointCount(0, text.length());
            channel.post(m.toString().getBytes(StandardCharsets.UTF_8), reply -> replied(s, width, text, reply));
        }

        private synchronized void replied(long s, int width, String text, String reply) {
            if (reply.equals(s + " show")) {
                screen.say("\n");
                channel.post(("shown\0" + s + "\0").getBytes(StandardCharsets.UTF_8), r -> replied(s, 0, text, r));
                return;
            }
            waiting = false;
            String erase = "\b \b".repeat(width);
            if (reply.equals(s + " run")) {
                // cmd echoes the line itself
                screen.say(erase);
                send(text + "\r");
            } else {
                screen.say(erase);
                send("\r");
            }
        }

        private void send(String text) {
            try {
                shell.write(text.getBytes(StandardCharsets.UTF_8));
                shell.flush();
            } catch (IOException | NullPointerException e) {
                // cmd is gone
            }
        }

        @Override
        public void output(byte[] buf, int len) {
            for (int i = 0; i < len; i++) {
                mark(buf[i]);
            }
        }

        /** Finds ESC ] 9 ; 9 ; DIR ESC \ (or BEL) in the output. */
        private void mark(byte b) {
            int n = osc.size();
            byte[] head = {27, ']', '9', ';', '9', ';'};
            if (n < head.length) {
                if (b == head[n]) {
                    osc.write(b);
                } else {
                    osc.reset();
                    if (b == 27) {
                        osc.write(b);
                    }
                }
                return;
            }
            if (b == 7 || b == '\\') {
                byte[] all = osc.toByteArray();
                int end = all[all.length - 1] == 27 ? all.length - 1 : all.length;
                cwd = Path.of(new String(all, head.length, end - head.length, StandardCharsets.UTF_8));
                osc.reset();
                watch.prompt();
            } else if (n > 4096) {
                osc.reset();
            } else {
                osc.write(b);
            }
        }
    }
}
