/**
 * The provider SPI: one streaming request per model turn, with typed failures. Each provider maps the neutral
 * conversation to its own wire format in a sub-package.
 */
package dev.dockhand.core.model;
