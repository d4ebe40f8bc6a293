package io.shellgate.launcher.internal;

import picocli.CommandLine;

/** The version shown by {@code shellgate --version}. */
public final class Version implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String v = Version.class.getPackage().getImplementationVersion();
        return new String[] {"shellgate " + (v == null ? "development build" : v),
                "Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")"};
    }
}
