package dev.dockhand.cli.repl;

import dev.dockhand.core.Utf16;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.tool.OpenFolder;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Workspace;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code @path} in a REPL prompt: the file's content (or a folder's listing) is attached to the message, confined to
 * the workspace like the file tools. What cannot be attached stays in the prompt as typed, with a note for the user.
 */
public final class Attachments {
    /** An {@code @} at the start of a word, then the path up to the next space. */
    private static final Pattern REFERENCE = Pattern.compile("(?<![\\w@])@([^\\s@][^\\s]*)");

    static final int MAX_FILE_CHARS = 100_000;
    static final int MAX_ENTRIES = 500;

    /** The message for the model, and one line per reference for the user. */
    record Expanded(String message, List<String> notes) {}

    private Attachments() {}

    static Expanded expand(String prompt, Workspace workspace) {
        return expand(prompt, workspace, Redactor.OFF);
    }

    /** The prompt with its files attached, each file's secrets replaced by placeholders as a file read's are. */
    static Expanded expand(String prompt, Workspace workspace, Redactor redactor) {
        StringBuilder attached = new StringBuilder();
        List<String> notes = new ArrayList<>();
        Matcher matcher = REFERENCE.matcher(prompt);
        List<Path> seen = new ArrayList<>();
        while (matcher.find()) {
            String reference = stripTrailingPunctuation(matcher.group(1));
            try (WorkspaceFile file = workspace.openForRead(reference)) {
                if (seen.contains(file.path())) {
                    continue;
                }
                WorkspaceFile.Kind kind = file.kind();
                if (kind == WorkspaceFile.Kind.MISSING) {
                    // Perhaps an e-mail address or a handle: left as typed.
                    notes.add("@" + reference + " is not a file or folder here; sent as typed.");
                    continue;
                }
                seen.add(file.path());
                notes.add(attach(file, kind, workspace.display(file.path()), attached, redactor));
            } catch (PathOutsideWorkspaceException | PathChangedException e) {
                notes.add("@" + reference + " was not attached: " + e.getMessage());
            } catch (IOException e) {
                notes.add("@" + reference + " could not be read: " + e.getMessage());
            }
        }
        String message = attached.length() == 0
                ? prompt
                : prompt + "\n\n" + attached.toString().stripTrailing();
        return new Expanded(message, notes);
    }

    /** Reads through the workspace like the file tools: a link put on the path since the check is not followed. */
    private static String attach(
            WorkspaceFile file, WorkspaceFile.Kind kind, String shown, StringBuilder attached, Redactor redactor)
            throws IOException {
        if (kind == WorkspaceFile.Kind.DIRECTORY) {
            List<String> entries = new ArrayList<>();
            try (OpenFolder folder = file.openFolder()) {
                for (String name : folder.names()) {
                    boolean directory = folder.attributes(name)
                            .map(BasicFileAttributes::isDirectory)
                            .orElse(false);
                    entries.add(name + (directory ? "/" : ""));
                }
            }
            entries.sort(null);
            attached.append("<folder path=\"").append(shown).append("\">\n");
            entries.stream().limit(MAX_ENTRIES).forEach(entry -> attached.append(entry)
                    .append('\n'));
            if (entries.size() > MAX_ENTRIES) {
                attached.append("… and ").append(entries.size() - MAX_ENTRIES).append(" more\n");
            }
            attached.append("</folder>\n\n");
            return "attached folder " + shown + " (" + entries.size() + " entries)";
        }
        if (kind != WorkspaceFile.Kind.FILE) {
            throw new IOException("it is not a regular file");
        }
        String content;
        try {
            content = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(file.readAllBytes()))
                    .toString();
        } catch (CharacterCodingException binary) {
            throw new IOException("it is not UTF-8 text");
        }
        boolean cut = content.length() > MAX_FILE_CHARS;
        if (cut) {
            content = Utf16.head(content, MAX_FILE_CHARS);
        }
        Redactor.Redacted redacted = redactor.redact(content);
        content = redacted.text();
        attached.append("<file path=\"").append(shown).append("\">\n").append(content);
        if (!content.endsWith("\n")) {
            attached.append('\n');
        }
        if (cut) {
            attached.append("[… cut at ").append(MAX_FILE_CHARS).append(" characters; read_file reads the rest]\n");
        }
        attached.append("</file>\n\n");
        long lines = content.lines().count();
        return "attached " + shown + " (" + lines + (lines == 1 ? " line" : " lines") + (cut ? ", cut" : "")
                + (redacted.count() == 0
                        ? ""
                        : ", " + redacted.count() + (redacted.count() == 1 ? " secret" : " secrets") + " redacted")
                + ")";
    }

    /** "see @src/Main.java," refers to the file, not to "Main.java,". */
    private static String stripTrailingPunctuation(String reference) {
        String stripped = reference;
        while (!stripped.isEmpty() && ",.;:!?)".indexOf(stripped.charAt(stripped.length() - 1)) >= 0) {
            stripped = stripped.substring(0, stripped.length() - 1);
        }
        return stripped.isEmpty() ? reference : stripped;
    }
}
