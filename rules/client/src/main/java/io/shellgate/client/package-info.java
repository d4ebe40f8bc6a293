/**
 * The client side of the judge server protocol (docs/protocol.md), written once for every Java
 * client: the javaagent in any Java 17+ JVM and the launcher. Only JDK types, compiled for Java 17.
 */
package io.shellgate.client;
