package dev.dockhand.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
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

/** Reads a text file with line numbers, a window of lines at a time. */
public final class ReadFileTool extends BaseTool<ReadFileTool.Params> {
    public static final String NAME = "read_file";
    private static final String DESCRIPTION =
            "Read a text file. Lines come numbered (1-based). Long files are read in windows: the result says"
                    + " which offset to use next. Lines over 2000 characters are cut.";
    static final int DEFAULT_LIMIT = 2000;
    static final int MAX_LINE_CHARS = 2000;

    /** The model's arguments. */
    public record Params(String path, Integer offset, Integer limit) {}

    private static final ObjectNode SCHEMA = Schema.object()
            .required("path", Schema.string("File to read, relative to the workspace root or absolute inside it."))
            .optional("offset", Schema.integer("1-based line number to start from. Default 1.", 1))
            .optional("limit", Schema.integer("Maximum number of lines to return. Default 2000.", 1))
            .build();

    public ReadFileTool() {
        super(NAME, DESCRIPTION, SCHEMA, ToolKind.READ, Params.class);
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
                case FILE -> read(file, params);
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
    private ToolResult read(WorkspaceFile file, Params params) throws IOException {
        try (SeekableByteChannel channel = file.open()) {
            byte[] head = TextFiles.head(channel);
            if (TextFiles.isBinary(head)) {
                String kind = TextFiles.binaryKind(head);
                return ToolResult.error(
                        ToolErrorType.INVALID_PARAMS,
                        params.path() + " is a binary file ("
                                + TextFiles.size(channel.size()) + (kind.isEmpty() ? "" : ", " + kind)
                                + "); read_file only reads text.");
            }
            return lines(channel, params);
        }
    }

    private ToolResult lines(SeekableByteChannel channel, Params params) throws IOException {
        int offset = params.offset() == null ? 1 : params.offset();
        int limit = params.limit() == null ? DEFAULT_LIMIT : params.limit();
        StringBuilder text = new StringBuilder();
        long total = 0;
        int shown = 0;
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        BufferedReader reader = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), decoder));
        String line;
        while ((line = reader.readLine()) != null) {
            total++;
            if (total >= offset && shown < limit) {
                shown++;
                TextFiles.lineNumber(text, total).append(cut(line)).append('\n');
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

    private static String cut(String line) {
        if (line.length() <= MAX_LINE_CHARS) {
            return line;
        }
        return line.substring(0, MAX_LINE_CHARS) + " [… line cut: " + line.length() + " characters in all]";
    }
}
