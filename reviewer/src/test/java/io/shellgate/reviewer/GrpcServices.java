package io.shellgate.reviewer;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * An OTLP collector service ({@code Export}, one unary method) for a grpc-java server, with the
 * messages as bytes: the test decodes them with the protocol's classes itself, and the reply is
 * the empty {@code Export*ServiceResponse} (no bytes).
 */
final class GrpcServices {

    /** What the service does with one request's bytes; false answers UNAVAILABLE. */
    interface Export {
        boolean take(byte[] request) throws IOException;
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private GrpcServices() {}

    static ServerServiceDefinition service(String name, Export export) {
        MethodDescriptor<byte[], byte[]> method = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(name, "Export"))
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
        return ServerServiceDefinition.builder(name).addMethod(method, ServerCalls.asyncUnaryCall((request, reply) -> {
            try {
                if (export.take(request)) {
                    reply.onNext(new byte[0]);
                    reply.onCompleted();
                } else {
                    reply.onError(Status.UNAVAILABLE.withDescription("the test collector refuses").asRuntimeException());
                }
            } catch (IOException | RuntimeException e) {
                reply.onError(Status.INVALID_ARGUMENT.withDescription(e.toString()).asRuntimeException());
            }
        })).build();
    }
}
