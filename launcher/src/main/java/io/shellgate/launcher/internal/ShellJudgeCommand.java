package io.shellgate.launcher.internal;

import io.shellgate.launcher.internal.gate.Gatekeepers;
import io.shellgate.launcher.internal.server.Protocol;
import io.shellgate.launcher.internal.server.RequestHandler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The launcher script's fallback when no judge server answers: one protocol request on standard
 * input, one reply on standard output, judged in this JVM.
 */
@Command(name = "__judge-request", hidden = true)
public final class ShellJudgeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    private final InputStream input;

    public ShellJudgeCommand(InputStream input) {
        this.input = input;
    }

    @Override
    public Integer call() throws IOException {
        return answer(input, spec.commandLine().getOut());
    }

    /**
     * Reads one request and writes one reply; always 0 (an error is a reply). {@link
     * io.shellgate.launcher.Main} calls it without building the command line, which would cost
     * the drop-in shell's cold path tens of milliseconds.
     */
    public static int answer(InputStream input, PrintWriter out) throws IOException {
        String line = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8)).readLine();
        if (line == null || line.length() > Protocol.MAX_REQUEST) {
            out.println(Protocol.line(Protocol.error("bad-request", "no request on standard input")));
            out.flush();
            return 0;
        }
        // the request's own environment is this process's (the launcher script sends its own): the
        // same gate configuration as the judge server would use for it
        RequestHandler handler = new RequestHandler(new Gatekeepers(null), System.getenv("SHELLGATE_LAUNCHER"), null);
        com.fasterxml.jackson.databind.JsonNode request;
        try {
            request = Protocol.parse(line);
        } catch (IOException e) {
            out.println(Protocol.line(Protocol.error("bad-request", "not valid JSON")));
            out.flush();
            return 0;
        }
        out.println(Protocol.line(handler.handle(request)));
        out.flush();
        return 0;
    }
}
