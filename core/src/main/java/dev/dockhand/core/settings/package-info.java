/**
 * Settings files: the user's {@code ~/.dockhand/settings.json} and the project's
 * {@code <workspace>/.dockhand/settings.json}, read strictly (against the option keys the caller's table declares, and
 * the blocks of {@link Settings}) so a typo stops the run instead of being ignored; and the
 * YAML front matter of the Markdown files that define custom commands and agents ({@link FrontMatter}).
 */
package dev.dockhand.core.settings;
