package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dockhand.core.Utf16;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.ImageHeader;
import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.tool.BaseTool;
import dev.dockhand.core.tool.PathChangedException;
import dev.dockhand.core.tool.PathOutsideWorkspaceException;
import dev.dockhand.core.tool.Schema;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolKind;
import dev.dockhand.core.tool.ToolResult;
import dev.dockhand.core.tool.WorkspaceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a text file with line numbers, a page at a time. A page is at most the run's output budget ({@link
 * OutputLimits}: lines and characters), ends on a whole line and says which offset comes next, so the scheduler's
 * head-and-tail cut, which would drop the middle of a page, never applies ({@link #pagesItsOutput}).
 */
public final class ReadFileTool extends BaseTool<ReadFileTool.Params> {
    public static final String NAME = "read_file";
    static final int MAX_LINE_CHARS = 2000;
    /** The longest closing note, with room to spare: "[Showing lines …; call read_file with offset=… …]". */
    private static final int NOTE_CHARS = 160;

    private static final String DESCRIPTION = "Read a text file. Lines come numbered (1-based). Long files are read"
            + " in pages of whole lines, at most the output budget: " + OutputLimits.DEFAULT.maxLines() + " lines or "
            + OutputLimits.DEFAULT.maxChars() + " characters unless the user changed it. The result says which offset"
            + " to use next. Lines over " + MAX_LINE_CHARS + " characters are cut. An image file (PNG, JPEG, GIF, WebP)"
            + " comes back as the image, to models that take images.";

    /** The model's arguments. */
    public record Params(String path, Integer offset, Integer limit) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("path", Schema.string("File to read, relative to the workspace root or absolute inside it."))
            .optional("offset", Schema.integer("1-based line number to start from. Default 1.", 1))
            .optional(
                    "limit",
                    Schema.integer(
                            "Maximum number of lines to return. Default and most: a page of the output budget.", 1))
            .build();

    public ReadFileTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
    }

    @Override
    public boolean pagesItsOutput() {
        return true;
    }

    @Override
    public String summarize(Params params) {
        return params.path();
    }

    @Override
    public ToolResult execute(Params params, ToolContext context) {
        try (WorkspaceFile file = context.workspace().openForRead(params.path())) {
            return switch (file.kind()) {
                case MISSING -> ToolResult.error(
                        ToolErrorType.FILE_NOT_FOUND, "File not found: " + params.path() + ".");
                case DIRECTORY -> ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        params.path() + " is a directory, not a file; list it with list_directory.");
                case OTHER -> ToolResult.error(
                        ToolErrorType.IO_ERROR,
                        params.path()
                                + " is not a regular file (a pipe, socket or device); read_file only reads files.");
                case FILE -> read(file, params, context.limits());
            };
        } catch (PathOutsideWorkspaceException e) {
            return e.toResult();
        } catch (PathChangedException e) {
            return e.toResult();
        } catch (IOException e) {
            return ToolResult.error(ToolErrorType.IO_ERROR, "Could not read " + params.path() + ": " + e + ".");
        }
    }

    /** Reads through one open file: the binary check and the text see the same bytes. */
    private ToolResult read(WorkspaceFile file, Params params, OutputLimits limits) throws IOException {
        try (SeekableByteChannel channel = file.open()) {
            byte[] head = TextFiles.head(channel);
            if (TextFiles.isBinary(head)) {
                return binary(channel, TextFiles.binaryKind(head), params.path());
            }
            return lines(channel, params, limits);
        }
    }

    /** The image kinds {@link TextFiles#binaryKind} names that every provider with vision takes, by MIME type. */
    private static final Map<String, String> IMAGE_TYPES = Map.of(
            "PNG image", "image/png",
            "JPEG image", "image/jpeg",
            "GIF image", "image/gif",
            "WebP image", "image/webp");

    /**
     * An image file as an image beside a line naming it, as Claude Code's Read does: the model can look at a
     * screenshot or a diagram in the workspace. A model that takes no images reads the line and a description. Files
     * over {@link Image#MAX_BYTES} stay binary files the tool does not read.
     */
    private static ToolResult image(byte[] bytes, String mimeType, String path) {
        Image image = Image.of(mimeType, bytes);
        String line = path + " is an image (" + mimeType + ", " + image.size() + ").";
        Optional<String> problem = ImageHeader.problem(mimeType, bytes);
        if (problem.isPresent()) {
            // Sent, it would make every later request of the session fail with a 400.
            return ToolResult.success(line + "\n" + image.describe(problem.get()), "read image, " + image.size());
        }
        return ToolResult.success(line, "read image, " + image.size()).withImages(List.of(image));
    }

    /**
     * A binary file: an image of a kind every provider takes, when it is within {@link Image#MAX_BYTES}, or the error
     * that read_file reads only text. The image is read to one byte past the limit, never further: the file may have
     * grown since its size was looked at, and then counts as too large.
     */
    static ToolResult binary(SeekableByteChannel channel, String kind, String path) throws IOException {
        String mimeType = IMAGE_TYPES.get(kind);
        if (mimeType != null && channel.size() <= Image.MAX_BYTES) {
            channel.position(0);
            byte[] bytes = Channels.newInputStream(channel).readNBytes(Math.toIntExact(Image.MAX_BYTES) + 1);
            if (bytes.length <= Image.MAX_BYTES) {
                return image(bytes, mimeType, path);
            }
        }
        return ToolResult.error(
                ToolErrorType.INVALID_PARAMS,
                path + " is a binary file (" + TextFiles.size(Math.max(channel.size(), channel.position()))
                        + (kind.isEmpty() ? "" : ", " + kind) + "); read_file only reads text.");
    }

    /**
     * One page from {@code offset}: lines while both the line and the character budget hold (the first line always,
     * cut to fit), then the rest of the file is only counted.
     */
    private ToolResult lines(SeekableByteChannel channel, Params params, OutputLimits limits) throws IOException {
        int offset = params.offset() == null ? 1 : params.offset();
        int limit = Math.min(params.limit() == null ? Integer.MAX_VALUE : params.limit(), limits.maxLines());
        // Room for the closing note, so page and note together stay within the budget.
        int maxChars = Math.max(limits.maxChars() - NOTE_CHARS, limits.maxChars() / 2);
        int lineChars = Math.min(MAX_LINE_CHARS, maxChars / 2);
        StringBuilder text = new StringBuilder();
        long total = 0;
        int shown = 0;
        boolean full = false;
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        BufferedReader reader = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), decoder));
        String line;
        while ((line = reader.readLine()) != null) {
            total++;
            if (total >= offset && shown < limit && !full) {
                int before = text.length();
                TextFiles.lineNumber(text, total).append(cut(line, lineChars)).append('\n');
                if (shown > 0 && text.length() > maxChars) {
                    text.setLength(before);
                    full = true;
                } else {
                    shown++;
                }
            }
        }
        if (total == 0) {
            return ToolResult.success("(" + params.path() + " is empty)", "empty file");
        }
        if (offset > total) {
            return ToolResult.error(
                    ToolErrorType.INVALID_PARAMS,
                    "offset " + offset + " is past the end of " + params.path() + ", which has " + total + " lines.");
        }
        long last = offset + shown - 1L;
        if (last < total) {
            text.append("\n[Showing lines ")
                    .append(offset)
                    .append('-')
                    .append(last)
                    .append(" of ")
                    .append(total)
                    .append(". The file continues: call read_file with offset=")
                    .append(last + 1)
                    .append(" to read more.]\n");
        }
        return ToolResult.success(text.toString(), "read " + shown + (shown == 1 ? " line" : " lines"));
    }

    private static String cut(String line, int keep) {
        if (line.length() <= keep) {
            return line;
        }
        return Utf16.head(line, keep) + " [… line cut: " + line.length() + " characters in all]";
    }
}
