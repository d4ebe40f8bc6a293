package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Script;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Gemini CLI 0.61's command envelope (bash):
 *
 * <pre>
 * shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=TMP/gemini-shell-XXXXXX/bgpids.tmp
 * (
 *   trap 'jobs -p > "$_bgpids_file"' EXIT
 * COMMAND
 * )
 * __code=$?
 * exit $__code
 * </pre>
 *
 * The command sits in the text unquoted, so it is accepted only when it parses completely on its
 * own, cannot end the subshell early or run on into the envelope's last lines, and cannot change
 * what the trap writes to ({@link InnerGuard#insideTrap}); the whole text must then parse into
 * exactly this shape.
 */
final class GeminiCommand implements Recognizer {

    static final String NAME = "gemini-cli 0.61 command";

    private static final String HEAD = "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=";
    private static final String TRAP = "\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n";
    private static final String TAIL = "\n)\n__code=$?\nexit $__code";

    private static final Pattern FORM = Pattern.compile(Pattern.quote(HEAD)
            + "([A-Za-z0-9_./+-]+|'[^'\\n]*')" + Pattern.quote(TRAP) + "((?s).*)" + Pattern.quote(TAIL));
    private static final Pattern TEMP_DIR = Pattern.compile("gemini-shell-[A-Za-z0-9]{6}");

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        String text = request.command();
        Matcher m = FORM.matcher(text);
        if (!m.matches() || !isBgpidsFile(m.group(1), request)) {
            return Optional.empty();
        }
        String inner = m.group(2);
        if (!InnerGuard.insideTrap(inner) || !hasEnvelopeShape(text, m.start(2), m.end(2))) {
            return Optional.empty();
        }
        return Optional.of(new Envelopes.Unwrapped(NAME, new JudgeRequest(
                inner, request.dialect(), request.cwd(), request.env(), request.positional(), request.freshShell())));
    }

    private static boolean isBgpidsFile(String word, JudgeRequest request) {
        Path file = AgentFiles.absolute(word.startsWith("'") ? word.substring(1, word.length() - 1) : word);
        if (file == null || !file.getFileName().toString().equals("bgpids.tmp")) {
            return false;
        }
        Path dir = file.getParent();
        return dir.getParent() != null && TEMP_DIR.matcher(dir.getFileName().toString()).matches()
                && AgentFiles.tempDirs(request.env()).contains(dir.getParent())
                && AgentFiles.absentOrOwn(dir, true) && AgentFiles.absentOrOwn(file, false);
    }

    /**
     * The whole text, parsed by the judge's parser, is the five parts of the envelope, the
     * subshell spanning exactly from its {@code (} to its {@code )}: a second guard, over the
     * inner command's own parse, that nothing in it changed the envelope's structure.
     */
    private static boolean hasEnvelopeShape(String text, int innerStart, int innerEnd) {
        Script s = Parsing.clean(text);
        if (s == null) {
            return false;
        }
        List<Command> items = Parsing.items(s);
        int open = innerStart - TRAP.length() + 1;
        int close = innerEnd + 2;
        return items.size() == 5 && items.get(2) instanceof Command.Subshell sub
                && sub.span().start() == open && sub.span().end() == close
                && items.get(0) instanceof Command.Simple && items.get(1) instanceof Command.Simple
                && items.get(3) instanceof Command.Simple && items.get(4) instanceof Command.Simple;
    }
}
