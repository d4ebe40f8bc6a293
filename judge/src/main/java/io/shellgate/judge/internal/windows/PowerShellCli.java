package io.shellgate.judge.internal.windows;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * What {@code powershell.exe} or {@code pwsh} runs, from its arguments: parameter names are case
 * insensitive, may start with {@code -}, {@code --} or {@code /}, and may be abbreviated.
 */
public final class PowerShellCli {

    /** What the arguments make PowerShell do. */
    public sealed interface Run {}

    /** Runs {@code code} as a script; {@code encoded} when it came from -EncodedCommand. */
    public record Code(String code, boolean encoded) implements Run {}

    /** Runs a script file (not read by shellgate). */
    public record File(String file) implements Run {}

    /** Reads commands from standard input, or starts an interactive session. */
    public record Stdin(boolean interactive) implements Run {}

    /** Arguments shellgate does not understand. */
    public record Unknown(String why) implements Run {}

    private static final List<String> SWITCHES = List.of("noprofile", "nologo", "noninteractive", "noexit", "mta", "sta",
            "login", "interactive", "noprofileloadtime");
    private static final List<String> WITH_VALUE = List.of("executionpolicy", "windowstyle", "inputformat", "outputformat",
            "version", "workingdirectory", "configurationname", "custompipename", "settingsfile", "psconsolefile");

    private PowerShellCli() {}

    /**
     * @param windowsPowerShell true for {@code powershell.exe} 5.1 (a bare first argument is
     *     -Command), false for {@code pwsh} (a bare first argument is -File)
     */
    public static Run parse(List<String> args, boolean windowsPowerShell) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String name = name(a);
            if (name == null) {
                return windowsPowerShell ? new Code(String.join(" ", args.subList(i, args.size())), false)
                        : new File(a);
            }
            if (name.isEmpty()) {
                return new Stdin(false);
            }
            if (is(name, "command", 1) || name.equals("c")) {
                List<String> rest = args.subList(i + 1, args.size());
                if (rest.isEmpty()) {
                    return new Unknown("-Command without a script");
                }
                if (rest.size() == 1 && rest.getFirst().equals("-")) {
                    return new Stdin(false);
                }
                return new Code(String.join(" ", rest), false);
            }
            if (is(name, "encodedcommand", 1) || name.equals("e") || name.equals("ec") || name.equals("enc")) {
                if (i + 1 >= args.size()) {
                    return new Unknown("-EncodedCommand without a script");
                }
                String decoded = decode(args.get(i + 1));
                return decoded == null ? new Unknown("the -EncodedCommand text is not valid base64 of UTF-16") : new Code(decoded, true);
            }
            if (is(name, "file", 1)) {
                return i + 1 < args.size() ? new File(args.get(i + 1)) : new Unknown("-File without a file");
            }
            if (name.equals("ep") || name.equals("ex") || name.equals("wd") || name.equals("w") || name.equals("o")
                    || name.equals("v") || name.equals("if") || name.equals("of") || WITH_VALUE.stream().anyMatch(p -> is(name, p, 2))) {
                i++;
                continue;
            }
            if (name.equals("nop") || name.equals("noni") || name.equals("noe") || name.equals("l") || name.equals("i")
                    || SWITCHES.stream().anyMatch(p -> is(name, p, 3))) {
                continue;
            }
            return new Unknown("unknown PowerShell option " + a);
        }
        return new Stdin(true);
    }

    /** The parameter name without its leading -, -- or /, lower case; null when the argument is not one; "" for "-". */
    private static String name(String a) {
        if (a.equals("-")) {
            return "";
        }
        String dashless = a.startsWith("--") ? a.substring(2) : a.startsWith("-") || a.startsWith("/")
                || a.startsWith("\u2013") || a.startsWith("\u2014") ? a.substring(1) : null;
        if (dashless == null || dashless.isEmpty() || !Character.isLetter(dashless.charAt(0))) {
            return null;
        }
        int colon = dashless.indexOf(':');
        return (colon > 0 ? dashless.substring(0, colon) : dashless).toLowerCase(Locale.ROOT);
    }

    private static boolean is(String name, String full, int min) {
        return name.length() >= min && full.startsWith(name);
    }

    /** The script of -EncodedCommand: base64 of UTF-16LE; null when it is not that. */
    public static String decode(String b64) {
        try {
            byte[] bytes = Base64.getDecoder().decode(b64.strip());
            return StandardCharsets.UTF_16LE.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
    }
}
