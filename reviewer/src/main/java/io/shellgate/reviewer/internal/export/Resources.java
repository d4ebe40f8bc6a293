package io.shellgate.reviewer.internal.export;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.resources.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The resource every record and metric of this process carries: the configured attributes and
 * service name, the host's name and the user's. The host name is read from the kernel, never
 * looked up on the network.
 */
final class Resources {

    private Resources() {}

    static Resource of(OtlpConfig config) {
        AttributesBuilder a = Attributes.builder();
        a.put("host.name", hostName());
        ProcessHandle.current().info().user().ifPresent(user -> a.put("user.name", user));
        a.put("process.pid", ProcessHandle.current().pid());
        a.put("telemetry.sdk.name", "opentelemetry");
        a.put("telemetry.sdk.language", "java");
        config.resource().forEach(a::put);
        return Resource.create(a.build());
    }

    static String hostName() {
        for (String file : new String[] {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
            try {
                String name = Files.readString(Path.of(file)).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            } catch (IOException | RuntimeException e) {
                // next source
            }
        }
        String windows = System.getenv("COMPUTERNAME");
        return windows == null ? "unknown" : windows;
    }
}
