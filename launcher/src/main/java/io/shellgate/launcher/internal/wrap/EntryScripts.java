package io.shellgate.launcher.internal.wrap;

/**
 * The text of the small bash scripts that stand where the agent finds a shell. Each reads the
 * session's pass: a shell started inside a command the gate already let run carries it (the gate
 * gives it only to the commands it runs) and goes straight to the real shell; any other start goes
 * to shellgate's drop-in shell, named for the shell it stands for, which judges it. A shell whose
 * language is not judged is refused instead.
 */
final class EntryScripts {

    private EntryScripts() {}

    /** The agent's own start keeps PATH and SHELL as wrap gave them, entries first: its later shells are caught. */
    private static final String GIVEN = "export PATH=$sg_given_path; if [ -n \"$sg_given_shell\" ]; then export SHELL=$sg_given_shell; fi";

    /**
     * An entry that covers one shell file in the namespace.
     *
     * @param bash the real bash that runs the entry and the launcher (a path no entry covers)
     * @param key the session's pass file
     * @param bin the session's directory of PATH entries
     * @param real the covered shell file's real content, reachable under another path
     * @param launcher shellgate's launcher script
     * @param agent the agent whose wrapper texts the judge recognises, or null
     * @param judged whether the shell's language is judged (else it is refused)
     * @param multiCall whether the file is busybox: only its shell applets are judged, the others run as they are
     * @param first the {@link #firstStart} test
     */
    static String cover(String bash, String key, String bin, String real, String launcher, String agent, boolean judged,
            boolean multiCall, String first) {
        return head(bash, key, bin, null) + """
                if [ "$sg_passed" = 1 ]; then
                    exec -a "$0" %s "$@"
                fi
                %sif [ "$sg_first" = 1 ]; then
                    %s
                    exec -a "$0" %s "$@"
                fi
                """.formatted(quote(real), first, GIVEN, quote(real)) + (multiCall ? applets(real) : "")
                + judge(bash, "\"$0\"", launcher, agent, judged);
    }

    /**
     * The test that sets {@code sg_first=1} when the entry runs in the very process wrap started: the person's own
     * start, which reaches a shell only when the agent is a shell or is started through a shim (a script whose first
     * line runs a shell, and the scripts it {@code exec}s in the same process on its way to the agent's program). In
     * the namespace that process is the first of its own process namespace (bwrap is 1, it is 2), which no later
     * process can be while the session lasts; without the namespace it is wrap's own child. Nothing is inherited and
     * nothing is written: a shell any later process starts (the agent's commands, a shim's subshells) is judged.
     *
     * @param wrap the pid of the wrap process
     * @param namespace whether the agent runs in bwrap's namespace (with its own process ids)
     */
    static String firstStart(long wrap, boolean namespace) {
        if (!namespace) {
            return "sg_first=\nif [ \"$PPID\" = %d ]; then sg_first=1; fi\n".formatted(wrap);
        }
        return "sg_first=\nif [ \"$$\" = 2 ] && [ \"$PPID\" = 1 ]; then sg_first=1; fi\n";
    }

    /**
     * busybox runs the applet it is named as ({@code /bin/sh} linked to it runs its sh), or its first
     * argument's when named busybox. A shell applet by its own name is judged as that shell; one
     * named in an argument ({@code busybox sh -c ...}) is refused, since the gate would run it by a
     * name that is no shell; every other applet runs as it is, as the program it stands for would.
     */
    private static String applets(String real) {
        return """
                sg_applet=${0##*/}
                if [ "$sg_applet" = busybox ]; then
                    case ${1-} in
                        sh | ash | hush | bash)
                            printf 'shellgate: refused (shell-not-judged): %%s %%s: start that shell by its own name (sh), which shellgate judges\\n' "$0" "$1" >&2
                            exit 126 ;;
                    esac
                    exec -a "$0" %s "$@"
                fi
                case $sg_applet in
                    sh | ash | hush | bash) ;;
                    *) exec -a "$0" %s "$@" ;;
                esac
                """.formatted(quote(real), quote(real));
    }

    /**
     * An entry in the directory put first on PATH: it runs the next {@code name} on PATH, as the
     * agent would have found it without the entry, through the gate.
     */
    static String onPath(String bash, String key, String bin, String name, String launcher, String agent, boolean judged,
            String first) {
        return head(bash, key, bin, name) + """
                if [ -z "$sg_real" ]; then
                    printf '%%s: command not found\\n' %s >&2
                    exit 127
                fi
                if [ "$sg_passed" = 1 ]; then
                    exec -a "$0" "$sg_real" "$@"
                fi
                %sif [ "$sg_first" = 1 ]; then
                    %s
                    exec -a "$0" "$sg_real" "$@"
                fi
                """.formatted(quote(name), first, GIVEN) + judge(bash, "\"$sg_real\"", launcher, agent, judged);
    }

    /**
     * Reads the pass, and takes the session's PATH entries out of PATH and SHELL: the shell (and the
     * judge) see what the agent would see without them, and an entry can never find itself. With a
     * name, also finds the next program of that name on PATH ({@code sg_real}).
     */
    private static String head(String bash, String key, String bin, String name) {
        String find = name == null ? "" : """
                    if [ -z "$sg_real" ] && [ -f "$sg_d/%s" ] && [ -x "$sg_d/%s" ]; then sg_real=$sg_d/%s; fi
                """.formatted(name, name, name);
        return "#!" + bash + "\n"
                + "# shellgate wrap: a shell entry for one agent's session (see shellgate wrap --help)\n"
                + """
                sg_pass= sg_path= sg_real= sg_shell= sg_given_path=${PATH-} sg_given_shell=${SHELL-}
                IFS= read -r sg_pass < %s 2>/dev/null
                IFS=: read -r -a sg_dirs <<< "${PATH-}"
                for sg_d in "${sg_dirs[@]}"; do
                    case $sg_d in %s | %s/) continue ;; esac
                    sg_path=${sg_path:+$sg_path:}$sg_d
                    case $sg_d in /*) ;; *) continue ;; esac
                %s    if [ -z "$sg_shell" ] && [ -f "$sg_d/${SHELL##*/}" ] && [ -x "$sg_d/${SHELL##*/}" ]; then sg_shell=$sg_d/${SHELL##*/}; fi
                done
                export PATH=$sg_path
                case ${SHELL-} in %s/*) [ -n "$sg_shell" ] && export SHELL=$sg_shell ;; esac
                sg_passed=
                case ${SHELLGATE_PASS-} in
                    "$sg_pass".*.*)
                        sg_v=${SHELLGATE_PASS#"$sg_pass".} sg_p=$$
                        sg_for=${sg_v%%%%.*} sg_since=${sg_v#*.}
                        # an allowed command never runs as process 1 or 2 (init, or bwrap's init and the agent)
                        case $sg_for in '' | *[!0-9]* | 1 | 2) sg_p= ;; esac
                        if [ -n "$sg_pass" ]; then
                            while [ -n "$sg_p" ] && [ "$sg_p" != 0 ] && IFS= read -r sg_st < "/proc/$sg_p/stat"; do
                                read -r -a sg_f <<< "${sg_st##*) }"
                                if [ "$sg_p" = "$sg_for" ]; then
                                    [ "${sg_f[19]-}" = "$sg_since" ] && sg_passed=1
                                    break
                                fi
                                sg_p=${sg_f[1]-}
                            done 2>/dev/null
                        fi ;;
                esac
                """.formatted(quote(key), quote(bin), quote(bin), find, quote(bin));
    }

    private static String judge(String bash, String shell, String launcher, String agent, boolean judged) {
        if (!judged) {
            return """
                    printf 'shellgate: refused (shell-not-judged): %%s runs a language shellgate does not judge; start it from a command the gate allows, or use bash, zsh or sh\\n' %s >&2
                    exit 126
                    """.formatted(shell);
        }
        // the pass goes to the launcher, which hands it only to a command it lets run; it names this process (its id
        // and start time), which the allowed shell is or descends from, so it lets through only the shells that
        // command starts: one that escapes into the agent's own environment (a command that prints its environment,
        // Copilot CLI's login-environment probe) is worth nothing to a shell the agent starts itself
        return "IFS= read -r sg_st < /proc/$$/stat\nread -r -a sg_f <<< \"${sg_st##*) }\"\n"
                + "export SHELLGATE_PASS=$sg_pass.$$.${sg_f[19]}\n"
                + "exec " + quote(bash) + " " + quote(launcher) + (agent == null ? "" : " --agent " + quote(agent))
                + " --shell " + shell + " \"$@\"\n";
    }

    /** A word in single quotes for bash. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
