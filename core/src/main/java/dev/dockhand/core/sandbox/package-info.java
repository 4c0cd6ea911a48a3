/**
 * The Sandbox SPI: where shell commands run, in the foreground ({@code exec}) or the background ({@code start}). The
 * sandbox module implements it locally and in Docker; one contract test holds both to the same behaviour.
 */
package dev.dockhand.core.sandbox;
