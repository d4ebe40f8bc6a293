package io.shellgate.reviewer.internal.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.re2j.Pattern;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the LLM's reply into an opinion, trusting nothing: a reply that is not exactly one JSON
 * object with exactly the fields {@code decision}, {@code risk} and {@code reason}, with known
 * values, escalates.
 *
 * <p>Wrapping: a Markdown code fence around the object (what models without a JSON mode like to
 * write) is taken off, since it carries no words; so is a leading {@code <think>} block, where
 * reasoning models served without a JSON mode put their reasoning (it is thrown away, never read
 * as the answer). Any other text before or after the object
 * escalates rather than being cut away: prose next to the JSON is the model talking past the
 * format, and a second object in the reply is what an injected command would produce.
 *
 * <p>An approval whose reason argues with the rules (says they are wrong, to be ignored or
 * overridden, or speaks of new instructions) escalates as well: the LLM judges risk within the
 * rules and has no say over them, and such words are the usual trace of a prompt injection that
 * worked.
 */
final class ReplyParser {

    static final int MAX_REASON_CHARS = 300;
    private static final Set<String> FIELDS = Set.of("decision", "risk", "reason");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    /** Longer replies are not read: a verdict and a sentence are a few hundred characters. */
    static final int MAX_REPLY_CHARS = 64 * 1024;
    private static final String RULES = "(rules?|polic(y|ies)|instructions?|judge('s)?|findings?|guidelines?"
            + "|restrictions?|checks?|safeguards?|shellgate)";
    private static final List<Pattern> ARGUING = List.of(
            Pattern.compile("\\b(ignor|disregard|overrid|overrul|bypass|circumvent|set(ting)? aside)\\w*\\s+"
                    + "((the|all|any|these|those|previous|prior|above|its|their|such)\\s+)*" + RULES + "\\b"),
            Pattern.compile("\\b" + RULES + "\\s+(is|are|was|were|seems?|looks?)\\s+(\\w+\\s+)?(wrong|mistaken"
                    + "|incorrect|too strict|overly|outdated|misguided|not applicable|irrelevant|a mistake)"),
            Pattern.compile("\\bfalse[- ]positive"),
            Pattern.compile("\\bshould (be|have been) (allowed|permitted|whitelisted|allow-?listed|read-only)"),
            Pattern.compile("\\b(new|updated|revised|system|admin(istrator)?)\\s+(rules?|polic(y|ies)|instructions?)"),
            Pattern.compile("\\b(as|per) (the )?(instructions?|instructed|requested|told)\\b"),
            Pattern.compile("\\b(pre-?approved|already approved|authori[sz]ed by|approved by (the )?(user|admin))"),
            Pattern.compile("\\bdespite (the )?" + RULES));

    private ReplyParser() {}

    static LlmOpinion parse(String reply) {
        if (reply == null || reply.isBlank()) {
            return LlmOpinion.escalate("the LLM's reply was empty");
        }
        if (reply.length() > MAX_REPLY_CHARS) {
            return LlmOpinion.escalate("the LLM's reply is " + reply.length() + " characters long, more than the "
                    + MAX_REPLY_CHARS + " a verdict needs");
        }
        String text = withoutThinking(reply.strip()).strip();
        String fenced = insideFence(text);
        if (fenced != null) {
            text = fenced.strip();
        }
        if (!text.startsWith("{") || !text.endsWith("}")) {
            return LlmOpinion.escalate("the LLM's reply is not just one JSON object: " + snippet(reply));
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return LlmOpinion.escalate("the LLM's reply is not one well-formed JSON object: " + snippet(reply));
        }
        if (root == null || !root.isObject()) {
            return LlmOpinion.escalate("the LLM's reply is not a JSON object: " + snippet(reply));
        }
        Set<String> missing = new TreeSet<>(FIELDS);
        Set<String> unknown = new TreeSet<>();
        root.fieldNames().forEachRemaining(name -> {
            if (!missing.remove(name)) {
                unknown.add(clean(name, 40));
            }
        });
        if (!missing.isEmpty() || !unknown.isEmpty()) {
            return LlmOpinion.escalate("the LLM's reply " + (missing.isEmpty() ? "" : "misses " + missing)
                    + (missing.isEmpty() || unknown.isEmpty() ? "" : " and ")
                    + (unknown.isEmpty() ? "" : "has unknown fields " + unknown));
        }
        for (String field : FIELDS) {
            if (!root.get(field).isTextual()) {
                return LlmOpinion.escalate("the LLM's reply has a " + field + " that is not a string");
            }
        }
        Outcome outcome = Outcome.parse(root.get("decision").textValue().strip());
        if (outcome == null) {
            return LlmOpinion.escalate("the LLM's reply has an unknown decision \""
                    + clean(root.get("decision").textValue(), 40) + "\"; expected approve, refuse or escalate");
        }
        Risk risk = Risk.parse(root.get("risk").textValue().strip());
        if (risk == null) {
            return LlmOpinion.escalate("the LLM's reply has an unknown risk \""
                    + clean(root.get("risk").textValue(), 40) + "\"; expected low, medium or high");
        }
        String reason = clean(root.get("reason").textValue(), MAX_REASON_CHARS);
        if (reason.isEmpty()) {
            return LlmOpinion.escalate("the LLM gave no reason for its decision");
        }
        if (outcome == Outcome.APPROVE && arguesWithRules(reason)) {
            return LlmOpinion.escalate("the LLM approved with a reason that argues with the rules, not trusted: \""
                    + reason + "\"");
        }
        return new LlmOpinion(outcome, risk, reason);
    }

    /**
     * The reply without a leading {@code <think>...</think>} block (reasoning models put one first).
     * Searched by hand, as {@link #insideFence} is: the reply is untrusted text, and a regular
     * expression with backtracking took minutes on a few kilobytes shaped for it.
     */
    static String withoutThinking(String text) {
        if (!text.startsWith("<think>")) {
            return text;
        }
        int end = text.indexOf("</think>", "<think>".length());
        return end < 0 ? text : text.substring(end + "</think>".length());
    }

    /**
     * What a Markdown code fence holds, when the whole text is one: an opening line of
     * {@code ```} and a language name, a closing line of {@code ```}; null otherwise.
     */
    static String insideFence(String text) {
        if (!text.startsWith("```") || !text.endsWith("```")) {
            return null;
        }
        int first = text.indexOf('\n');
        int last = text.lastIndexOf('\n');
        if (first < 0 || last <= first) {
            return null;
        }
        int i = 3;
        while (i < first && isAsciiLetter(text.charAt(i))) {
            i++;
        }
        if (!text.substring(i, first).isBlank() || !text.substring(last + 1, text.length() - 3).isBlank()) {
            return null;
        }
        return text.substring(first + 1, last);
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    static boolean arguesWithRules(String reason) {
        String lower = reason.toLowerCase(Locale.ROOT);
        return ARGUING.stream().anyMatch(p -> p.matcher(lower).find());
    }

    /** The start of the reply, safe to show on a terminal. */
    static String snippet(String reply) {
        return "\"" + clean(reply, 120) + "\"";
    }

    /**
     * One line without control or format characters (a reason is shown on the person's terminal:
     * no escape sequences, no bidirectional overrides), cut to {@code max} characters.
     */
    static String clean(String text, int max) {
        // a reply may be huge; only its start is ever shown
        String start = text.length() > 4 * max ? text.substring(0, 4 * max) : text;
        StringBuilder out = new StringBuilder();
        start.codePoints().forEach(cp -> {
            int type = Character.getType(cp);
            if (type == Character.FORMAT) {
                // dropped, not spaced: a zero-width character must not split "ignore" into two words
                return;
            }
            boolean invisible = type == Character.CONTROL || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.UNASSIGNED
                    || type == Character.PRIVATE_USE || type == Character.SURROGATE;
            out.appendCodePoint(invisible || Character.isWhitespace(cp) ? ' ' : cp);
        });
        String line = out.toString().replaceAll(" {2,}", " ").strip();
        if (line.length() > max) {
            int cut = Character.isHighSurrogate(line.charAt(max - 2)) ? max - 2 : max - 1;
            // never split a surrogate pair: half a character is not text
            line = line.substring(0, cut) + "…";
        }
        return line;
    }
}
