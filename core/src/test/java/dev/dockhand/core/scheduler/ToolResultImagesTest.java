package dev.dockhand.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.output.OutputLimits;
import dev.dockhand.core.redaction.Redactor;
import dev.dockhand.core.redaction.SecretRules;
import dev.dockhand.core.redaction.SecretValues;
import dev.dockhand.core.testing.TestEnvironments;
import dev.dockhand.core.testing.ToolImages;
import dev.dockhand.core.tool.ToolContext;
import dev.dockhand.core.tool.ToolErrorType;
import dev.dockhand.core.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The steps between a tool and the model rewrite a result's text and leave its images whole. */
class ToolResultImagesTest {
    @TempDir
    Path temp;

    private static final ToolResult WITH_IMAGE =
            ToolResult.success("shot taken", "shot").withImages(List.of(ToolImages.PNG));

    @Test
    void cuttingTheTextKeepsTheImagesAndTheWholeOutputOnDiskNamesThem() throws IOException {
        Path workspace = Files.createDirectories(temp.resolve("w"));
        ToolContext limited = TestEnvironments.context(workspace, TestEnvironments.NO_COMMANDS);
        limited = new ToolContext(
                limited.workspace(),
                limited.sandbox(),
                limited.cancellation(),
                limited.output(),
                "call_cut",
                new OutputLimits(100, 10),
                limited.outputDir());
        String lines = IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));

        ToolResult cut = ToolExecutor.withinLimits(
                ToolResult.success(lines, "100 lines").withImages(List.of(ToolImages.PNG)), limited);

        assertEquals(List.of(ToolImages.PNG), cut.images());
        List<String> saved = new ArrayList<>();
        try (Stream<Path> files = Files.walk(limited.outputDir())) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                saved.addAll(Files.readAllLines(file));
            }
        }
        List<String> expected = new ArrayList<>(lines.lines().toList());
        expected.add("[image: image/png, 69 bytes, sent to the model beside this text]");
        assertEquals(expected, saved);
    }

    @Test
    void notesCancellationAndAnEmptyTextKeepTheImages() {
        assertEquals(
                new ToolResult(
                        "shot taken\n[The user cancelled this call while it ran, so this output may be incomplete.]",
                        "shot",
                        Optional.of(ToolErrorType.CANCELLED),
                        List.of(ToolImages.PNG)),
                RunEndings.afterCancel(WITH_IMAGE));
        assertEquals(
                new ToolResult(
                        "(shot returned 1 image)",
                        "(shot returned 1 image)",
                        Optional.empty(),
                        List.of(ToolImages.PNG)),
                RunEndings.withSomeText(ToolResult.success("", "").withImages(List.of(ToolImages.PNG)), "shot"));
    }

    @Test
    void redactionRewritesTheTextAndLeavesTheImageData() {
        String secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        Redactor redactor = Redactor.of(SecretRules.builtIn(), new SecretValues(), Set.of(), problem -> {});

        assertEquals(
                new ToolResult("token [REDACTED:github-pat:1]", "shot", Optional.empty(), List.of(ToolImages.PNG)),
                redactor.redact(ToolResult.success("token " + secret, "shot").withImages(List.of(ToolImages.PNG))));
    }
}
