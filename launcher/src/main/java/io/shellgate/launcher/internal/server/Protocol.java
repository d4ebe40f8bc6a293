package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.Result;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.JsonTrees;
import io.shellgate.launcher.internal.shell.ShellChoice;

/**
 * The judge server's protocol, version 1: one JSON object per line each way. See
 * {@code docs/protocol.md}. Replies always start with {@code v}, then {@code tier} (or
 * {@code error}), {@code rule}, {@code message}, {@code shell} and {@code dialect} in this order,
 * so that a shell-level client can read them without a JSON parser.
 */
public final class Protocol {

    public static final int VERSION = 1;
    /** The longest request line accepted, in bytes. */
    public static final int MAX_REQUEST = 1 << 20;

    /** A new empty object (no ObjectMapper: see {@link JsonTrees}). */
    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** One request line's tree; null for an empty line. */
    public static JsonNode parse(String line) throws java.io.IOException {
        return JsonTrees.parse(line);
    }

    /** One reply line, without its newline. */
    public static String line(JsonNode reply) {
        return JsonTrees.write(reply);
    }

    private Protocol() {}

    /** A verdict reply; {@code shell} is the shell that will run the line, when resolved. */
    public static ObjectNode verdict(Verdict v, ShellChoice shell) {
        return verdict(v, shell, false);
    }

    /**
     * A verdict reply; a brief one leaves out the reasons and commands (a shell's {@code read}
     * takes a reply one byte, and one system call, at a time).
     */
    public static ObjectNode verdict(Verdict v, ShellChoice shell, boolean brief) {
        ObjectNode out = object();
        out.put("v", VERSION);
        out.put("tier", v.tier().id());
        Reason primary = v.primary();
        out.put("rule", primary.rule());
        out.put("message", primary.message());
        out.put("shell", shell == null ? "" : shell.path());
        out.put("dialect", shell == null ? "" : shell.dialect().id());
        if (brief) {
            return out;
        }
        details(out, v, false);
        return out;
    }

    /**
     * A reviewed verdict's reply: the verdict's first fields, then {@code run}, {@code step} and
     * {@code decided}, then (unless brief) the reasons and commands.
     */
    static ObjectNode reviewed(Verdict v, ShellChoice shell, boolean brief, boolean run, Step step, String decided) {
        ObjectNode out = verdict(v, shell, true);
        out.put("run", run);
        out.put("step", step.id());
        out.put("decided", decided);
        if (!brief) {
            details(out, v, false);
        }
        return out;
    }

    /**
     * The reply to a command the gate itself refused (no audit log where one is required): tier
     * deny, whatever the verdict was, with the gate's rule and reason.
     */
    static ObjectNode refusal(Result.Refused r, ShellChoice shell) {
        ObjectNode out = object();
        out.put("v", VERSION);
        out.put("tier", "deny");
        out.put("rule", r.rule());
        out.put("message", r.message());
        out.put("shell", shell == null ? "" : shell.path());
        out.put("dialect", shell == null ? "" : shell.dialect().id());
        out.put("run", false);
        out.put("step", r.step().id());
        out.put("decided", r.message());
        return out;
    }

    /**
     * Adds {@code reasons} (most severe first) and {@code commands} to a verdict object;
     * {@code full} adds each reason's span and each command's wrappers, as {@code check --json}
     * gives them.
     */
    public static void details(ObjectNode out, Verdict v, boolean full) {
        ArrayNode reasons = out.putArray("reasons");
        for (Reason r : v.bySeverity()) {
            ObjectNode o = reasons.addObject();
            o.put("rule", r.rule());
            o.put("tier", r.tier().id());
            o.put("message", r.message());
            if (full) {
                ObjectNode span = o.putObject("span");
                span.put("start", r.span().start());
                span.put("end", r.span().end());
            }
        }
        ArrayNode commands = out.putArray("commands");
        for (CommandInfo c : v.commands()) {
            ObjectNode o = commands.addObject();
            ArrayNode argv = o.putArray("argv");
            c.argv().forEach(argv::add);
            if (full) {
                ArrayNode wrappers = o.putArray("wrappers");
                c.wrappers().forEach(wrappers::add);
            }
            o.put("resolved", c.resolved());
            o.put("tier", c.tier().id());
        }
    }

    /** An error reply; never carries a tier, so no client can read it as an allow. */
    public static ObjectNode error(String code, String message) {
        ObjectNode out = object();
        out.put("v", VERSION);
        out.put("error", code);
        out.put("message", message);
        return out;
    }

    static String text(JsonNode node, String field) {
        JsonNode f = node.get(field);
        return f != null && f.isTextual() ? f.asText() : null;
    }
}
