package io.shellgate.it;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test with a fresh {@link Sandbox} for each method, whose servers are stopped afterwards. */
abstract class SandboxTest {

    @TempDir
    Path dir;

    Sandbox box;

    @BeforeEach
    void openSandbox() throws Exception {
        box = new Sandbox(dir);
    }

    @AfterEach
    void closeSandbox() throws Exception {
        box.close();
    }
}
