package io.shellgate.reviewer.internal.export;

import io.opentelemetry.common.ComponentLoader;
import io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider;
import io.opentelemetry.exporter.sender.okhttp.internal.OkHttpGrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.HttpSenderProvider;
import java.util.List;

/**
 * The one sender each exporter may use, given to it instead of found by service lookup (two HTTP
 * senders on the class path made the choice the class path's order): the JDK's HTTP client for
 * http/protobuf, OkHttp for gRPC (HTTP/2 without TLS, and trailers, which the JDK's client lacks).
 */
final class Senders implements ComponentLoader {

    static final Senders ONLY = new Senders();

    private Senders() {}

    @Override
    @SuppressWarnings("unchecked")
    public <T> Iterable<T> load(Class<T> spi) {
        if (spi == HttpSenderProvider.class) {
            return (Iterable<T>) List.of(new JdkHttpSenderProvider());
        }
        if (spi == GrpcSenderProvider.class) {
            return (Iterable<T>) List.of(new OkHttpGrpcSenderProvider());
        }
        return List.of();
    }
}
