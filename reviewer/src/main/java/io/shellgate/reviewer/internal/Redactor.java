package io.shellgate.reviewer.internal;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.List;
import java.util.Locale;

/**
 * Hides secrets in a command line before it is written to the audit log: values of password and
 * token options, {@code Authorization} headers, credentials in URLs, secret-looking variable
 * assignments and well-known key formats. RE2 patterns, so redaction runs in linear time on
 * whatever an agent sends.
 */
public final class Redactor {

    static final String MASK = "[REDACTED]";

    /**
     * A pattern whose group 1 is kept and group 2 is the secret, with a cheap test that is true of
     * every ASCII text the pattern can match in: words it cannot match without, looked for in the
     * lower-cased text. Most command lines hold none of them, and then no pattern runs at all.
     */
    private record Guarded(Pattern pattern, String required, List<String> anyOf) {

        boolean mayMatch(String lower) {
            if (!lower.contains(required)) {
                return false;
            }
            for (String word : anyOf) {
                if (lower.contains(word)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final List<Guarded> KEEP_NAME = List.of(
            // --password=x, --token x, --api-key 'x', -p'x' is left alone (too many meanings)
            new Guarded(Pattern.compile("(?i)(--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|token|secret|api[-_]?key|access[-_]?key"
                    + "|private[-_]?key|client[-_]?secret|auth)(?:[-_][a-z0-9]+)*(?:=|\\s+))('[^']*'|\"[^\"]*\"|[^\\s'\"]+)"),
                    "-", List.of("pass", "token", "secret", "key", "auth")),
            // Authorization: Bearer x / Basic x, and other auth-carrying headers
            new Guarded(Pattern.compile("(?i)((?:authorization|proxy-authorization|x-api-key|api-key|x-auth-token|private-token|cookie)"
                    + "\\s*:\\s*(?:(?:bearer|basic|token|digest)\\s+)?)([^\\s'\"]+)"),
                    ":", List.of("authorization", "api-key", "token", "cookie")),
            // NAME=value where the name says it holds a secret
            new Guarded(Pattern.compile("(?i)((?:^|[\\s;&|(])(?:[a-z0-9_]*(?:password|passwd|token|secret|api_?key|access_?key"
                    + "|private_?key|credentials?)[a-z0-9_]*)=)('[^']*'|\"[^\"]*\"|[^\\s'\";&|)]+)"),
                    "=", List.of("passw", "token", "secret", "key", "credential")),
            // scheme://user:password@host
            new Guarded(Pattern.compile("(?i)([a-z][a-z0-9+.-]*://[^\\s/:@'\"]+:)([^\\s/@'\"]+)(?:@)"),
                    "://", List.of("@")),
            // mysql -pSECRET, sshpass -p SECRET
            new Guarded(Pattern.compile("((?:^|[\\s;&|(])(?:mysql|mysqldump|mariadb|sshpass)\\b[^;&|\\n]*?\\s-p)([^\\s'\"]+)"),
                    "-p", List.of("mysql", "mariadb", "sshpass")));

    /** Whole-match secrets: keys with a recognisable shape. */
    private static final Pattern KEYS = Pattern.compile(
            "(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
                    + "|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}"
                    + "|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}"
                    + "|-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))");

    /** The same test for {@link #KEYS} (which is case-sensitive: lower-casing only widens it). */
    private static final List<String> KEY_STARTS = List.of(
            "sk-", "gh", "github_pat_", "glpat-", "xox", "akia", "asia", "aiza", "npm_", "hf_", "eyj", "-----begin");

    private Redactor() {}

    /** The text with every secret it recognises replaced by {@value #MASK}. */
    public static String redact(String text) {
        if (!isAscii(text)) {
            // case folding beyond ASCII (the Kelvin sign is a k to (?i)) is the patterns' business
            return redactFully(text);
        }
        String out = text;
        String lower = text.toLowerCase(Locale.ROOT);
        for (Guarded g : KEEP_NAME) {
            if (g.mayMatch(lower)) {
                out = replaceSecond(g.pattern(), out);
                lower = out.toLowerCase(Locale.ROOT);
            }
        }
        for (String start : KEY_STARTS) {
            if (lower.contains(start)) {
                return KEYS.matcher(out).replaceAll(MASK);
            }
        }
        return out;
    }

    /** {@link #redact} without the guards: every pattern runs. */
    static String redactFully(String text) {
        String out = text;
        for (Guarded g : KEEP_NAME) {
            out = replaceSecond(g.pattern(), out);
        }
        return KEYS.matcher(out).replaceAll(MASK);
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static String replaceSecond(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        int last = 0;
        do {
            sb.append(text, last, m.start(2)).append(MASK);
            last = m.end(2);
        } while (m.find());
        return sb.append(text, last, text.length()).toString();
    }
}
