/**
 * The Sandbox SPI: where shell commands run. The sandbox module implements it locally and in Docker; one contract
 * test holds both to the same behaviour.
 */
package dev.dockhand.core.sandbox;
