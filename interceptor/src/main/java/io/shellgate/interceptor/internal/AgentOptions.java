package io.shellgate.interceptor.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's options: {@code key=value} pairs separated by commas, from the agent argument
 * string ({@code -javaagent:shellgate-agent.jar=mode=audit,policy=/x.toml}) and from
 * {@code $SHELLGATE_AGENT_OPTIONS}; the argument string wins for a key given in both.
 *
 * @param help print the options and stop the JVM
 * @param policy a policy file applied on top of the default, user and project policies, or null
 * @param audit whether refusals are only reported (fail-open audit mode) instead of enforced
 * @param judge {@code auto}, {@code in-process} or {@code server}
 * @param launcher the shellgate launcher that starts a judge server, or null to look for one
 */
public record AgentOptions(boolean help, String policy, boolean audit, String judge, String launcher) {

    /** The variable read besides the argument string. */
    public static final String ENV = "SHELLGATE_AGENT_OPTIONS";
    /** The Java the in-process judge is compiled for; older JVMs use the judge server. */
    public static final int IN_PROCESS_JAVA = 25;

    /** Parses the argument string and the environment's options; throws for anything unknown. */
    public static AgentOptions parse(String arguments, String fromEnv) {
        Map<String, String> values = new LinkedHashMap<>();
        put(values, fromEnv, "$" + ENV);
        put(values, arguments, "the -javaagent argument");
        String mode = values.getOrDefault("mode", "enforce");
        if (!mode.equals("enforce") && !mode.equals("audit")) {
            throw new IllegalArgumentException("mode=" + mode + ": use mode=enforce (the default) or mode=audit");
        }
        String judge = values.getOrDefault("judge", "auto");
        if (!judge.equals("auto") && !judge.equals("in-process") && !judge.equals("server")) {
            throw new IllegalArgumentException("judge=" + judge + ": use judge=auto (the default), judge=in-process or judge=server");
        }
        return new AgentOptions(values.containsKey("help"), values.get("policy"), mode.equals("audit"), judge,
                values.get("launcher"));
    }

    private static void put(Map<String, String> values, String text, String where) {
        if (text == null || text.isBlank()) {
            return;
        }
        for (String part : text.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            String key = (eq < 0 ? item : item.substring(0, eq)).toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : item.substring(eq + 1);
            boolean flag = key.equals("help");
            boolean known = flag || key.equals("policy") || key.equals("mode") || key.equals("judge") || key.equals("launcher");
            if (!known) {
                throw new IllegalArgumentException("unknown option '" + item + "' in " + where + "; see -javaagent:shellgate-agent.jar=help");
            }
            if (!flag && value.isEmpty()) {
                throw new IllegalArgumentException("option '" + key + "' in " + where + " needs a value (" + key + "=...)");
            }
            values.put(key, value);
        }
    }

    /** The text {@code help} prints. */
    public static String helpText() {
        return String.join("\n",
                "shellgate javaagent: every process this JVM starts is judged by shellgate first.",
                "",
                "  java -javaagent:/path/to/shellgate-agent.jar[=OPTIONS] ...",
                "  JAVA_TOOL_OPTIONS=-javaagent:/path/to/shellgate-agent.jar  (any JVM)",
                "  shellgate attach [--options=OPTIONS] PID                  (a JVM that is running)",
                "",
                "OPTIONS are key=value pairs separated by commas; $" + ENV + " takes the same",
                "(the argument string wins):",
                "  policy=FILE     a policy file applied on top of the default, user and project policies",
                "  mode=enforce    refused processes throw ShellgateRefusedException (an IOException) (default)",
                "  mode=audit      fail-open audit mode: nothing is refused; what would have been refused,",
                "                  and every judge failure, is reported on standard error",
                "  judge=auto      the judge in this JVM on Java 25+, the judge server on older JVMs (default)",
                "  judge=in-process | judge=server   force one of the two",
                "  launcher=PATH   the shellgate launcher that starts the judge server (default: shellgate",
                "                  next to the agent jar, then shellgate on PATH)",
                "  help            print this and exit (an attached agent refuses it instead)",
                "",
                "Refusals: deny, ask that no reviewer approved, a broken policy, a judge that cannot be reached.",
                "The judge server's run directory comes from $SHELLGATE_RUN_DIR, $XDG_RUNTIME_DIR/shellgate,",
                "$XDG_STATE_HOME/shellgate/run or ~/.local/state/shellgate/run.",
                "");
    }
}
