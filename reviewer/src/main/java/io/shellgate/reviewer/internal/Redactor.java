package io.shellgate.reviewer.internal;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.List;

/**
 * Hides secrets in a command line before it is written to the audit log: values of password and
 * token options, {@code Authorization} headers, credentials in URLs, secret-looking variable
 * assignments and well-known key formats. RE2 patterns, so redaction runs in linear time on
 * whatever an agent sends.
 */
public final class Redactor {

    static final String MASK = "[REDACTED]";

    /** Each pattern's group 1 is kept, group 2 is the secret. */
    private static final List<Pattern> KEEP_NAME = List.of(
            // --password=x, --token x, --api-key 'x', -p'x' is left alone (too many meanings)
            Pattern.compile("(?i)(--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|token|secret|api[-_]?key|access[-_]?key"
                    + "|private[-_]?key|client[-_]?secret|auth)(?:[-_][a-z0-9]+)*(?:=|\\s+))('[^']*'|\"[^\"]*\"|[^\\s'\"]+)"),
            // Authorization: Bearer x / Basic x, and other auth-carrying headers
            Pattern.compile("(?i)((?:authorization|proxy-authorization|x-api-key|api-key|x-auth-token|private-token|cookie)"
                    + "\\s*:\\s*(?:(?:bearer|basic|token|digest)\\s+)?)([^\\s'\"]+)"),
            // NAME=value where the name says it holds a secret
            Pattern.compile("(?i)((?:^|[\\s;&|(])(?:[a-z0-9_]*(?:password|passwd|token|secret|api_?key|access_?key"
                    + "|private_?key|credentials?)[a-z0-9_]*)=)('[^']*'|\"[^\"]*\"|[^\\s'\";&|)]+)"),
            // scheme://user:password@host
            Pattern.compile("(?i)([a-z][a-z0-9+.-]*://[^\\s/:@'\"]+:)([^\\s/@'\"]+)(?:@)"),
            // mysql -pSECRET, sshpass -p SECRET
            Pattern.compile("((?:^|[\\s;&|(])(?:mysql|mysqldump|mariadb|sshpass)\\b[^;&|\\n]*?\\s-p)([^\\s'\"]+)"));

    /** Whole-match secrets: keys with a recognisable shape. */
    private static final Pattern KEYS = Pattern.compile(
            "(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
                    + "|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}"
                    + "|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}"
                    + "|-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))");

    private Redactor() {}

    /** The text with every secret it recognises replaced by {@value #MASK}. */
    public static String redact(String text) {
        String out = text;
        for (Pattern p : KEEP_NAME) {
            out = replaceSecond(p, out);
        }
        return KEYS.matcher(out).replaceAll(MASK);
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
