package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * bash (and Git Bash): {@code bash --rcfile DIR/bashrc -i}. The rc file sources what bash would
 * have read ({@code ~/.bashrc}, or the profile files for a login shell), then binds Enter (and
 * every other key that accepts a line) to a macro: first a {@code bind -x} function that sends the
 * exact edit buffer, {@code $PWD} and the exported variables to the proxy and waits for its reply,
 * then a key the function has just bound to {@code accept-line} (run) or to nothing (more lines:
 * a newline is added to the buffer). A refused line is cleared and put in history for editing.
 */
public record BashIntegration() implements Integration {

    static final String RC = """
            # shellgate: the PTY proxy's integration for bash. Generated; the user's files are only sourced.
            __sg_dir=%s
            if [ -n "${SHELLGATE_LOGIN:-}" ]; then
              [ -r /etc/profile ] && . /etc/profile
              for __sg_f in ~/.bash_profile ~/.bash_login ~/.profile; do
                if [ -r "$__sg_f" ]; then . "$__sg_f"; break; fi
              done
            else
              [ -r ~/.bashrc ] && . ~/.bashrc
            fi
            unset SHELLGATE_LOGIN __sg_f
            __sg_seq=0
            __sg_check() {
              local __sg_line=$READLINE_LINE __sg_reply __sg_n IFS=$' \\t\\n'
              # history expansion happens after the line is accepted: judge what will run
              if [[ $__sg_line == *'!'* && $- == *H* ]]; then
                __sg_line=$(builtin history -p -- "$READLINE_LINE" 2>/dev/null) || __sg_line=$READLINE_LINE
              fi
              __sg_seq=$((__sg_seq + 1))
              {
                builtin printf 'check\\0%%s\\0%%s\\0%%s\\0' "$__sg_seq" "$__sg_line" "$PWD"
                for __sg_n in $(builtin compgen -e); do builtin printf '%%s=%%s\\0' "$__sg_n" "${!__sg_n}"; done
                builtin printf '\\036\\0'
              } > "$__sg_dir/req"
              __sg_answer
              if [[ $__sg_reply == "$__sg_seq show" ]]; then
                # readline cleared the line already: shellgate's message can start right here
                builtin printf 'shown\\0%%s\\0\\036\\0' "$__sg_seq" > "$__sg_dir/req"
                __sg_answer
              fi
              case $__sg_reply in
                "$__sg_seq run") builtin bind '"\\C-x\\C-]2": accept-line' ;;
                "$__sg_seq more")
                  READLINE_LINE+=$'\\n'
                  READLINE_POINT=${#READLINE_LINE}
                  builtin bind '"\\C-x\\C-]2": ""' ;;
                *)
                  builtin history -s -- "$READLINE_LINE"
                  READLINE_LINE=
                  READLINE_POINT=0
                  builtin bind '"\\C-x\\C-]2": accept-line' ;;
              esac
            }
            # an open of rep can meet the proxy's writer of the previous reply just before it closes,
            # and then reads nothing: read again (the proxy writes each reply whole, in one write)
            # A check skips an "ok" (an acknowledgement the shell missed, interrupted by Ctrl-C); $1=ok takes it.
            __sg_answer() {
              __sg_reply=
              while [[ ( -z $__sg_reply || ( $__sg_reply == ok && -z ${1:-} ) ) && -p $__sg_dir/rep ]]; do
                IFS= builtin read -r __sg_reply < "$__sg_dir/rep"
              done
            }
            # waits for the proxy to take the report: a prompt on the screen is one the proxy knows of
            __sg_prompt() {
              local __sg_status=$? __sg_reply
              builtin printf 'prompt\\0\\036\\0' > "$__sg_dir/req"
              __sg_answer ok
              return $__sg_status
            }
            readonly -f __sg_check __sg_answer __sg_prompt
            for __sg_map in emacs vi-insert vi-command; do
              builtin bind -m "$__sg_map" -x '"\\C-x\\C-]1": __sg_check'
              builtin bind -m "$__sg_map" '"\\C-x\\C-]2": accept-line'
              builtin bind -m "$__sg_map" '"\\C-m": "\\C-x\\C-]1\\C-x\\C-]2"'
              builtin bind -m "$__sg_map" '"\\C-j": "\\C-x\\C-]1\\C-x\\C-]2"'
            done
            # keys that accept a line or run an edited one without passing through Enter
            builtin bind -m emacs '"\\C-o": "\\C-x\\C-]1\\C-x\\C-]2"'
            builtin bind -m emacs -r '\\C-x\\C-e'
            builtin bind -m vi-command -r 'v'
            unset __sg_map
            if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == 'declare -a'* ]]; then
              PROMPT_COMMAND=(__sg_prompt "${PROMPT_COMMAND[@]}")
            else
              PROMPT_COMMAND="__sg_prompt${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
            fi
            """;

    @Override
    public void install(Path dir) throws IOException {
        Files.writeString(dir.resolve("bashrc"), rc(dir), StandardCharsets.UTF_8);
    }

    static String rc(Path dir) {
        return RC.formatted(Integration.quote(dir.toString()));
    }

    @Override
    public List<String> command(String shell, Path dir, boolean login) {
        return List.of(shell, "--rcfile", dir.resolve("bashrc").toString(), "-i");
    }

    @Override
    public Map<String, String> env(Path dir, Map<String, String> userEnv) {
        return Map.of();
    }
}
