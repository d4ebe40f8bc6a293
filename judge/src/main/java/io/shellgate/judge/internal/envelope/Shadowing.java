package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command as the shell runs it after a snapshot's definitions: an alias the snapshot defines
 * is expanded where the shell expands it (the first word of a simple command, unquoted), so the
 * judge sees the alias's text; a function of the snapshot that the command runs is code the judge
 * has not seen, so the command is not unwrapped (and the whole text asks).
 */
final class Shadowing {

    /**
     * Words after which the next word is still in command position: {@code coproc CMD} runs a
     * function or alias of that name as the line without it would (the execution oracle's
     * snapshot world found it).
     */
    private static final Set<String> KEYWORD_PREFIXES = Set.of("time", "-p", "!", "coproc");
    /**
     * zsh's precommand modifiers: {@code noglob cat} runs a function {@code cat} (the execution
     * oracle's zsh snapshot world found it). Whether zsh expands an alias after one is not modelled:
     * an alias there asks.
     */
    private static final Set<String> ZSH_PRECOMMANDS = Set.of("noglob", "nocorrect", "-");
    /** Commands that run shell text the walk does not see, where a function or alias would apply. */
    private static final Set<String> RUN_TEXT = Set.of("eval", "trap", "source", ".", "alias", "fc", "bind");

    private Shadowing() {}

    /**
     * {@code inner} with the snapshot's aliases expanded, or null when it runs one of the
     * snapshot's functions, uses an alias the judge cannot expand as the shell does (one whose
     * text ends in a blank, or starts with another alias), or runs shell text the judge cannot
     * follow while the snapshot defines anything.
     */
    static String apply(String inner, Set<String> functions, Map<String, String> aliases) {
        if (functions.isEmpty() && aliases.isEmpty()) {
            return inner;
        }
        Script s = Parsing.clean(inner);
        if (s == null) {
            return null;
        }
        record Edit(int start, int end, String text) {}
        List<Edit> edits = new ArrayList<>();
        for (Command c : Walk.of(s.body()).commands()) {
            if (!(c instanceof Command.Simple simple) || simple.words().isEmpty()) {
                continue;
            }
            int i = 0;
            boolean modified = false;
            List<Word> words = simple.words();
            while (i < words.size() - 1 && (KEYWORD_PREFIXES.contains(words.get(i).literal())
                    || ZSH_PRECOMMANDS.contains(words.get(i).literal()))) {
                modified |= ZSH_PRECOMMANDS.contains(words.get(i).literal());
                i++;
            }
            Word first = words.get(i);
            String name = first.literal();
            if (name == null || functions.contains(name) || RUN_TEXT.contains(name)) {
                return null;
            }
            String raw = inner.substring(first.span().start(), first.span().end());
            if (aliases.containsKey(raw) && modified) {
                return null;
            }
            if (aliases.containsKey(raw)) {
                String value = expand(raw, aliases);
                if (value == null) {
                    return null;
                }
                edits.add(new Edit(first.span().start(), first.span().end(), value));
            }
        }
        if (edits.isEmpty()) {
            return inner;
        }
        edits.sort(Comparator.comparingInt(Edit::start).reversed());
        StringBuilder out = new StringBuilder(inner);
        for (Edit e : edits) {
            out.replace(e.start(), e.end(), e.text());
        }
        String expanded = out.toString();
        return Parsing.clean(expanded) == null ? null : expanded;
    }

    /**
     * The text an alias name becomes: the shell expands the first word of an alias's text again
     * when that is another alias not already being expanded. Null when an alias's text ends in a
     * blank (the shell would then expand the next word of the line too).
     */
    private static String expand(String name, Map<String, String> aliases) {
        Set<String> seen = new java.util.HashSet<>();
        String word = name;
        String rest = "";
        while (aliases.containsKey(word) && seen.add(word)) {
            String value = aliases.get(word);
            if (value.isEmpty() || value.endsWith(" ") || value.endsWith("\t")) {
                return null;
            }
            int end = 0;
            while (end < value.length() && PLAIN.indexOf(value.charAt(end)) < 0 && Character.isLetterOrDigit(value.charAt(end))
                    || end < value.length() && PLAIN.indexOf(value.charAt(end)) >= 0) {
                end++;
            }
            rest = value.substring(end) + rest;
            word = value.substring(0, end);
        }
        return word + rest;
    }

    /** Characters besides letters and digits that an alias name may hold. */
    private static final String PLAIN = "_./:@%+-";
}
