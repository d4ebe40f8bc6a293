package io.shellgate.reviewer.model;

import java.time.Duration;

/**
 * What one read from a person's keyboard means as an answer to a question just shown. Only a
 * deliberate key answers: one key, read on its own, pressed once the question had been on the
 * screen for a moment. A burst of text (a paste, a program typing into the terminal, a line typed
 * ahead) or a key that came too soon is not an answer, and anything but an answer key refuses:
 * {@code y} runs it once, {@code s} always in this session, {@code p} always in this project,
 * {@code n}, {@code r}, Esc, Ctrl-C and Ctrl-D refuse.
 *
 * @param answer what the read means
 * @param why why it is a refusal when no refusal key was pressed; null otherwise
 */
public record KeyAnswer(Answer answer, String why) {

    /** Keys sooner than this after the question was drawn were typed before it could be read. */
    public static final Duration SETTLE = Duration.ofMillis(300);

    /** The choices, as the question shows them. */
    public static final String CHOICES = "[y] once  [s] always in this session  [p] always in this project  [n] refuse";

    /** What {@code s} and {@code p} keep, shown above the choices (lines end with a newline). */
    public static final String SCOPES = "  s and p remember this exact line (arguments naming files in the project written as full paths):\n"
            + "  s until this session ends; p in this project and its folders until revoked (shellgate approvals list\n"
            + "  shows each, shellgate approvals revoke ID takes one back; review.remember-days makes p expire)\n";

    /**
     * @param keys the bytes of one read
     * @param length how many of them there are
     * @param sinceShown how long after the question was drawn they arrived
     */
    public static KeyAnswer of(byte[] keys, int length, Duration sinceShown) {
        if (length > 1) {
            return new KeyAnswer(Answer.REFUSE, length + " keys arrived at once (a paste, a program typing, or keys"
                    + " typed ahead), which is not an answer");
        }
        if (length < 1) {
            return new KeyAnswer(Answer.REFUSE, "the keyboard closed");
        }
        if (sinceShown.compareTo(SETTLE) < 0) {
            return new KeyAnswer(Answer.REFUSE, "a key came within " + SETTLE.toMillis() + " ms of the question, before it"
                    + " could be read");
        }
        int key = keys[0] & 0xff;
        return switch (key) {
            case 'y', 'Y' -> new KeyAnswer(Answer.ONCE, null);
            case 's', 'S' -> new KeyAnswer(Answer.SESSION, null);
            case 'p', 'P' -> new KeyAnswer(Answer.PROJECT, null);
            case 'n', 'N', 'r', 'R', 27, 3, 4 -> new KeyAnswer(Answer.REFUSE, null);
            default -> new KeyAnswer(Answer.REFUSE, shown(key) + " is not an answer (y, s, p or n)");
        };
    }

    /**
     * Whether a read was typed without reading the question (several keys at once, or a key before it could be read):
     * a door that has a shell gives such keys to it after the question instead of dropping them.
     */
    public static boolean typedAhead(int length, Duration sinceShown) {
        return length > 1 || length == 1 && sinceShown.compareTo(SETTLE) < 0;
    }

    /** How the answer is shown after the question. */
    public String label() {
        String said = switch (answer) {
            case ONCE -> "once";
            case SESSION -> "always in this session";
            case PROJECT -> "always in this project";
            case REFUSE -> "refused";
        };
        return why == null ? said : said + ": " + why;
    }

    private static String shown(int key) {
        if (key < 0x20 || key == 0x7f) {
            return "Ctrl-" + (char) (key ^ 0x40);
        }
        return key < 0x80 ? "'" + (char) key + "'" : "byte " + key;
    }
}
