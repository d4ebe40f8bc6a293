/**
 * The javaagent that gates the processes a JVM starts: {@link io.shellgate.interceptor.Agent} is
 * the entry point, {@link io.shellgate.interceptor.ShellgateRefusedException} what a refused start
 * throws. Everything else is internal.
 */
package io.shellgate.interceptor;
