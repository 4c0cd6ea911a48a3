/**
 * Settings files: the user's {@code ~/.dockhand/settings.json} and the project's
 * {@code <workspace>/.dockhand/settings.json}, read strictly so a typo stops the run instead of being ignored.
 */
package dev.dockhand.core.settings;
