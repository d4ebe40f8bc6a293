package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * zsh: {@code ZDOTDIR} points at a directory of ours whose {@code .zshenv}, {@code .zprofile},
 * {@code .zshrc}, {@code .zlogin} and {@code .zlogout} source the user's (from their own
 * {@code ZDOTDIR} or {@code HOME}); {@code .zshrc} then replaces the widgets that accept a line
 * with one that sends the exact buffer, {@code $PWD} and the exported variables to the proxy and
 * waits for its reply. {@code ZDOTDIR} stays ours, so a zsh started inside inherits the hook.
 */
public record ZshIntegration() implements Integration {

    private static final List<String> FILES = List.of(".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout");

    /** Each file sources the user's file of the same name, with ZDOTDIR as the user would have it. */
    static final String SOURCE_USER = """
            # shellgate: sources the user's %1$s. Generated; the user's files are only sourced.
            ZDOTDIR=${SHELLGATE_USER_ZDOTDIR:-$HOME}
            [[ -r $ZDOTDIR/%1$s ]] && source $ZDOTDIR/%1$s
            SHELLGATE_USER_ZDOTDIR=$ZDOTDIR
            ZDOTDIR=%2$s
            """;

    static final String HOOK = """
            # shellgate: the PTY proxy's integration for zsh
            zmodload zsh/parameter 2>/dev/null
            typeset -gi __sg_seq=0
            typeset -g __sg_dir=%1$s
            __sg_accept() {
              emulate -L zsh
              local line=$BUFFER reply n saved
              if [[ -o banghist && $line == *'!'* ]]; then
                # history expansion happens after the line is accepted: judge what will run
                saved=$BUFFER
                zle .expand-history 2>/dev/null && line=$BUFFER
                BUFFER=$saved
              fi
              (( __sg_seq++ ))
              {
                print -rn -- "check"$'\\0'"$__sg_seq"$'\\0'"$line"$'\\0'"$PWD"$'\\0'
                for n in ${(k)parameters[(R)*export*]}; do print -rn -- "$n=${(P)n}"$'\\0'; done
                print -rn -- $'\\036\\0'
              } >| $__sg_dir/req
              __sg_answer
              if [[ $reply == "$__sg_seq show" ]]; then
                zle -I
                print -rn -- "shown"$'\\0'"$__sg_seq"$'\\0\\036\\0' >| $__sg_dir/req
                __sg_answer
              fi
              case $reply in
                ("$__sg_seq run") zle .$WIDGET ;;
                ("$__sg_seq more") BUFFER+=$'\\n'; CURSOR=$#BUFFER ;;
                (*) print -s -r -- "$BUFFER"; BUFFER=; zle .accept-line ;;
              esac
            }
            # an open of rep can meet the proxy's writer of the previous reply just before it closes,
            # and then reads nothing: read again (the proxy writes each reply whole, in one write)
            # A check skips an "ok" (an acknowledgement the shell missed, interrupted by Ctrl-C); $1=ok takes it.
            __sg_answer() {
              reply=
              while [[ ( -z $reply || ( $reply == ok && -z ${1:-} ) ) && -p $__sg_dir/rep ]]; do
                IFS= read -r reply < $__sg_dir/rep
              done
            }
            # waits for the proxy to take the report: a prompt on the screen is one the proxy knows of
            __sg_prompt() {
              local s=$? reply
              print -rn -- "prompt"$'\\0\\036\\0' >| $__sg_dir/req
              __sg_answer ok
              return $s
            }
            for __sg_w in accept-line accept-and-hold accept-line-and-down-history accept-and-infer-next-history; do
              zle -N $__sg_w __sg_accept
            done
            unset __sg_w
            precmd_functions+=(__sg_prompt)
            """;

    @Override
    public void install(Path dir) throws IOException {
        Path z = Files.createDirectories(dir.resolve("zsh"));
        for (String f : FILES) {
            String text = SOURCE_USER.formatted(f, Integration.quote(z.toString()));
            if (f.equals(".zshrc")) {
                text += HOOK.formatted(Integration.quote(dir.toString()));
            }
            Files.writeString(z.resolve(f), text, StandardCharsets.UTF_8);
        }
    }

    @Override
    public List<String> command(String shell, Path dir, boolean login) {
        return login ? List.of(shell, "-l", "-i") : List.of(shell, "-i");
    }

    @Override
    public Map<String, String> env(Path dir, Map<String, String> userEnv) {
        Map<String, String> env = new HashMap<>();
        env.put("ZDOTDIR", dir.resolve("zsh").toString());
        env.put("SHELLGATE_USER_ZDOTDIR", userEnv.getOrDefault("ZDOTDIR", ""));
        return env;
    }
}
