/**
 * The javaagent that gates the processes a JVM starts. Not built yet: see the interceptor issue.
 */
package io.shellgate.interceptor;
