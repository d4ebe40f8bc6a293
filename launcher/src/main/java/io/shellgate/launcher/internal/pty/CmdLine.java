package io.shellgate.launcher.internal.pty;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The line the person types at cmd's prompt, kept by the proxy: printable characters are added and
 * echoed, Backspace and Ctrl-U erase, escape sequences (arrows, function keys) are ignored, Ctrl-C
 * drops the line, and Enter hands the line over. cmd's own history keys (F7, arrows) are not
 * available: the shell sees the line only once it is judged.
 */
final class CmdLine {

    private final StringBuilder line = new StringBuilder();
    private final Consumer<String> echo;
    private final Consumer<String> submit;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final ByteBuffer pending = ByteBuffer.allocate(16);
    private int escape;

    CmdLine(Consumer<String> echo, Consumer<String> submit) {
        this.echo = echo;
        this.submit = submit;
    }

    void feed(byte[] buf, int len) {
        for (int i = 0; i < len; i++) {
            byte b = buf[i];
            if (b >= 0 && pending.position() == 0) {
                key((char) b);
                continue;
            }
            pending.put(b);
            pending.flip();
            CharBuffer out = CharBuffer.allocate(4);
            utf8.decode(pending, out, false);
            pending.compact();
            out.flip();
            while (out.hasRemaining()) {
                key(out.get());
            }
        }
    }

    private void key(char c) {
        if (escape > 0) {
            // ESC [ ... final byte, or ESC O x, or ESC x
            if (escape == 1) {
                escape = c == '[' ? 2 : c == 'O' ? 3 : 0;
            } else if (escape == 3 || c >= 0x40 && c <= 0x7e) {
                escape = 0;
            }
            return;
        }
        switch (c) {
            case 27 -> escape = 1;
            case '\r', '\n' -> {
                String l = line.toString();
                line.setLength(0);
                submit.accept(l);
            }
            case 127, 8 -> {
                if (!line.isEmpty()) {
                    int cut = line.offsetByCodePoints(line.length(), -1);
                    line.setLength(cut);
                    echo.accept("\b \b");
                }
            }
            case 21 -> echo.accept(erase());
            case 3 -> {
                line.setLength(0);
                echo.accept("^C");
                submit.accept("");
            }
            default -> {
                if (c >= ' ') {
                    line.append(c);
                    echo.accept(String.valueOf(c));
                }
            }
        }
    }

    /** What erases the echoed line from the screen, and forgets it. */
    String erase() {
        String s = "\b \b".repeat(line.codePointCount(0, line.length()));
        line.setLength(0);
        return s;
    }

    String text() {
        return line.toString();
    }
}
