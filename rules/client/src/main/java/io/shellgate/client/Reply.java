package io.shellgate.client;

import java.util.Map;

/**
 * One line from the judge server, read as the contract says (docs/protocol.md, "Replies"). A line
 * that is not one of these, or that lacks the proof a TCP reply must carry, is {@link NoAnswer}:
 * a client then acts as if no server had answered, and never runs a command because of it.
 */
public sealed interface Reply {

    /** Every interim line starts so: the rest of the protocol's lines never do. */
    String PENDING_PREFIX = "{\"v\":1,\"pending\":";
    /** The longest an interim line may make a client wait for the next line. */
    long MAX_WAIT_MILLIS = 630_000L;

    /**
     * A verdict. {@code run}, {@code step} and {@code decided} come with a review; {@code recheck}
     * with an allow a client may reuse while its file questions get the same answers; {@code envId}
     * when the server keeps the request's environment under that name on the connection.
     */
    record Verdict(String tier, String rule, String message, Boolean run, String step, String decided,
            String warning, Map<String, Object> recheck, String envId) implements Reply {

        /**
         * The one place a reply becomes a start: on {@code allow}, or on {@code ask} when the
         * review says {@code run}; never on {@code deny}, whatever else the reply says. An ask
         * without {@code run} is a refusal: nobody approved it.
         */
        public boolean mayRun() {
            return "allow".equals(tier) || "ask".equals(tier) && Boolean.TRUE.equals(run);
        }

        /** What to tell the user: the review's decision on an ask, else the verdict's message. */
        public String sentence() {
            if (!"ask".equals(tier)) {
                return message;
            }
            if (decided != null) {
                return decided;
            }
            return mayRun() ? message : "needed review (" + message + "), and no reviewer approved it";
        }
    }

    /** An error: never a verdict, so never a start. */
    record ServerError(String error, String message) implements Reply {

        /**
         * Whether a judge of the client's own would find the same ({@code policy}, {@code no-shell}):
         * reported as it is; any other error counts as no answer.
         */
        public boolean isFinal() {
            return "policy".equals(error) || "no-shell".equals(error);
        }

        /** The rule a refusal for this error names. */
        public String rule() {
            return switch (error) {
                case "policy" -> "policy-error";
                case "no-shell" -> "no-shell";
                default -> "judge-error";
            };
        }

        /** Why nothing was judged, in a sentence. */
        public String sentence() {
            return "policy".equals(error) ? "a policy file in effect is invalid: " + message
                    : "the judge server could not judge it (" + error + ": " + message + ")";
        }
    }

    /** What an agent's hook prints, and its exit code ({@code op:"hook"}). */
    record HookAnswer(int exit, String stdout, String stderr) implements Reply {}

    /** A review step the server waits on: the next line may take {@code seconds}. */
    record Pending(String step, long seconds) implements Reply {

        /** How long to wait for the next line, bounded by {@link #MAX_WAIT_MILLIS}. */
        public long waitMillis() {
            return Math.min(seconds * 1000, MAX_WAIT_MILLIS);
        }
    }

    /** The answer to {@code ping}. */
    record Pong(long pid) implements Reply {}

    /** The answer to {@code stop}. */
    record Stopping() implements Reply {}

    /** A line that is no answer: why. */
    record NoAnswer(String why) implements Reply {}

    /** The line's reply; {@code proof}, when not null, is what it must carry (every TCP reply). */
    static Reply parse(String line, String proof) {
        Map<String, Object> f;
        try {
            f = Json.object(line);
        } catch (IllegalArgumentException e) {
            return new NoAnswer("the judge server's reply is not a JSON object: " + e.getMessage());
        }
        if (proof != null && !proof.equals(f.get("proof"))) {
            return new NoAnswer("the reply does not carry the judge server's proof");
        }
        if (!Long.valueOf(1).equals(f.get("v"))) {
            return new NoAnswer("the reply is not of protocol version 1");
        }
        if (f.get("pending") instanceof String step) {
            return f.get("seconds") instanceof Long s && s >= 0 ? new Pending(step, s)
                    : new NoAnswer("an interim line without its seconds");
        }
        if (f.get("error") instanceof String error) {
            return new ServerError(error, text(f.get("message"), ""));
        }
        if (f.containsKey("tier")) {
            Object tier = f.get("tier");
            if (!"allow".equals(tier) && !"ask".equals(tier) && !"deny".equals(tier)) {
                return new NoAnswer("the judge server's reply had no tier");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> recheck = f.get("recheck") instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
            return new Verdict((String) tier, text(f.get("rule"), "unknown"), text(f.get("message"), ""),
                    f.get("run") instanceof Boolean b ? b : null, text(f.get("step"), null), text(f.get("decided"), null),
                    text(f.get("warning"), null), recheck, text(f.get("env-id"), null));
        }
        if (f.get("exit") instanceof Long exit && f.get("stdout") instanceof String out && f.get("stderr") instanceof String err) {
            return new HookAnswer(exit.intValue(), out, err);
        }
        if (Boolean.TRUE.equals(f.get("pong")) && f.get("pid") instanceof Long pid) {
            return new Pong(pid);
        }
        if (Boolean.TRUE.equals(f.get("stopping"))) {
            return new Stopping();
        }
        return new NoAnswer("the judge server's reply had no tier");
    }

    /** The reply to a request on the Unix socket, which carries no proof. */
    static Reply parse(String line) {
        return parse(line, null);
    }

    private static String text(Object value, String otherwise) {
        return value instanceof String s ? s : otherwise;
    }
}
