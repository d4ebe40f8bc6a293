package io.shellgate.reviewer;

import io.shellgate.reviewer.internal.TtyPerson;

/** People the pipeline can ask. */
public final class People {

    private People() {}

    /** The person at a terminal device ({@code /dev/tty}, {@code /dev/pts/3}): asked and answered on the device itself. */
    public static Person terminal(String device) {
        return new TtyPerson(device);
    }
}
