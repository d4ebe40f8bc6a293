package io.shellgate.launcher.internal.pty;

import io.shellgate.launcher.internal.terminal.PseudoTerminal;
import io.shellgate.launcher.internal.terminal.UserTerminal;
import io.shellgate.reviewer.model.Person;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sits between the user's terminal and a shell in a pseudo-terminal: output passes through byte
 * for byte, keys too (except answers to the proxy's own questions), window sizes follow the
 * user's terminal, and the hook's messages are answered by a {@link LineGate}. The user's terminal is
 * raw while the shell runs and restored on every way out (a shutdown hook covers signals).
 */
final class PtyProxy {

    private static final long HOOK_PATIENCE = TimeUnit.SECONDS.toNanos(3);

    /** Makes the gate once the shell runs: it needs the shell's pid and the person at the terminal. */
    interface Gates {
        LineGate create(long shellPid, Person person, Voice voice);
    }

    private final UserTerminal user;
    private final PseudoTerminal.Spawner spawner;
    private final Screen screen;
    private final EscapeWatch watch;

    PtyProxy(UserTerminal user, PseudoTerminal.Spawner spawner) {
        this.user = user;
        this.spawner = spawner;
        this.screen = new Screen(user.output());
        this.watch = new EscapeWatch(screen, HOOK_PATIENCE);
    }

    /** Runs the shell until it exits and returns its exit code. */
    int run(List<String> command, Map<String, String> env, Path cwd, HookChannel channel, Gates gates, LineEditor.Factory editors)
            throws IOException, InterruptedException {
        Thread restore = new Thread(user::restore, "shellgate-restore-terminal");
        Runtime.getRuntime().addShutdownHook(restore);
        user.enterRaw();
        try (PseudoTerminal child = spawner.spawn(command, env, cwd, user.size())) {
            Thread stop = new Thread(child::close, "shellgate-stop-shell");
            Runtime.getRuntime().addShutdownHook(stop);
            user.onResize(() -> child.resize(user.size()));
            LineEditor editor = editors.create(screen, watch);
            Keyboard keyboard = new Keyboard(user.input(), child.input(), watch, editor);
            Voice voice = new Voice(screen, channel);
            LineGate gate = gates.create(child.pid(), new TerminalPerson(voice, keyboard), voice);
            Thread out = Thread.ofPlatform().daemon().name("shellgate-output").start(() -> copy(child.output(), editor));
            Thread.ofPlatform().daemon().name("shellgate-keys").start(keyboard::pump);
            Thread hooks = Thread.ofPlatform().daemon().name("shellgate-hook").start(() -> serve(channel, gate, voice));
            Thread ticks = Thread.ofPlatform().daemon().name("shellgate-watch").start(() -> tick(child));
            int code = child.waitFor();
            drain(out, child.output());
            channel.close();
            hooks.interrupt();
            ticks.interrupt();
            remove(stop);
            return code;
        } finally {
            user.restore();
            remove(restore);
        }
    }

    /**
     * Lets what the shell printed last reach the terminal. The copy ends by itself once no process
     * holds the shell's terminal; a job left running in the background can hold it for ever, so
     * the wait also ends when nothing more has come for a moment.
     */
    private static void drain(Thread out, InputStream output) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int quiet = 0;
        while (out.isAlive() && quiet < 3 && System.nanoTime() < deadline) {
            out.join(50);
            try {
                quiet = output.available() > 0 ? 0 : quiet + 1;
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void remove(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already: the hook runs
        }
    }

    private void copy(InputStream from, LineEditor editor) {
        // a terminal read returns at most a few kilobytes (4 KiB on Linux); the reads cost nothing per byte asked for
        byte[] buf = new byte[16 * 1024];
        try {
            int n;
            while ((n = from.read(buf)) >= 0) {
                if (editor != null) {
                    editor.output(buf, n);
                }
                screen.write(buf, 0, n);
            }
        } catch (IOException e) {
            // the shell's terminal closed: it exited
        }
    }

    private void serve(HookChannel channel, LineGate gate, Voice voice) {
        try {
            HookChannel.Exchange e;
            while ((e = channel.next()) != null) {
                switch (HookMessage.parse(e.message())) {
                    case HookMessage.Prompt p -> {
                        watch.prompt();
                        e.acknowledge();
                    }
                    case HookMessage.Check c -> {
                        watch.checked();
                        voice.begin(e, c.seq());
                        LineGate.Reply reply = gate.decide(c);
                        watch.answered(reply);
                        voice.end().reply(c.seq() + " " + reply.wire());
                    }
                    case HookMessage.Shown s -> e.acknowledge();
                    case HookMessage.Malformed m -> {
                        screen.say("shellgate: refused (hook-error): the shell's hook sent " + m.why() + "\n");
                        e.reply("0 " + LineGate.Reply.REFUSE.wire());
                    }
                }
            }
        } catch (IOException e) {
            screen.say("\nshellgate: the shell's hook channel failed (" + e.getMessage() + "); lines typed now are not run\n");
        }
    }

    private void tick(PseudoTerminal child) {
        try {
            while (true) {
                Thread.sleep(500);
                watch.tick(child.shellInForeground());
            }
        } catch (InterruptedException e) {
            // the session ended
        }
    }
}
