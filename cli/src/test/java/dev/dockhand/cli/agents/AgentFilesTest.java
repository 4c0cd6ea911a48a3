package dev.dockhand.cli.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.agent.AgentDefinition;
import dev.dockhand.core.agent.DataPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentFilesTest {
    @TempDir
    Path folder;

    private Path write(String name, String text) throws Exception {
        Files.createDirectories(folder);
        return Files.writeString(folder.resolve(name), text);
    }

    @Test
    void aFileGivesItsFrontMatterAndItsBodyAsTheInstructions() throws Exception {
        Path file = write(
                "reviewer.md",
                """
                ---
                name: reviewer
                description: Reviews a change for bugs.
                tools: [read_file, grep]
                model: small-model
                max_turns: 8
                data_policy: summary
                ---
                You review changes.

                Be brief.
                """);

        assertEquals(
                new AgentDefinition(
                        "reviewer",
                        "Reviews a change for bugs.",
                        Optional.of(List.of("read_file", "grep")),
                        Optional.of("small-model"),
                        8,
                        DataPolicy.SUMMARY,
                        "You review changes.\n\nBe brief.",
                        file.toString()),
                AgentFiles.read(file));
    }

    @Test
    void toolsMayBeOneLineOfNamesAndTheRestHasDefaults() throws Exception {
        Path file = write(
                "finder.md",
                "\uFEFF---\r\nname: finder\r\ndescription: Finds things.\r\ntools: glob, grep\r\n---\r\nFind.\r\n");

        assertEquals(
                new AgentDefinition(
                        "finder",
                        "Finds things.",
                        Optional.of(List.of("glob", "grep")),
                        Optional.empty(),
                        AgentDefinition.DEFAULT_MAX_TURNS,
                        DataPolicy.FULL,
                        "Find.",
                        file.toString()),
                AgentFiles.read(file));
    }

    @Test
    void eachUnusableFileIsSaidInOneSentenceAndSkippedAndTheOthersLoad() throws Exception {
        write("a-good.md", "---\nname: good\ndescription: Fine.\n---\nWork.\n");
        write("b-plain.md", "Just text.\n");
        write("c-open.md", "---\nname: open\n");
        write("d-yaml.md", "---\nname: [unclosed\n---\nx\n");
        write("e-key.md", "---\nname: typo\ndescription: d\nmax-turns: 3\n---\nx\n");
        write("f-policy.md", "---\nname: leaky\ndescription: d\ndata_policy: all\n---\nx\n");
        write("g-name.md", "---\nname: Bad Name\ndescription: d\n---\nx\n");
        write("h-body.md", "---\nname: empty\ndescription: d\n---\n\n");
        write("i-turns.md", "---\nname: turns\ndescription: d\nmax_turns: many\n---\nx\n");
        write("j-list.md", "---\n- a\n- b\n---\nx\n");
        Files.write(folder.resolve("k-binary.md"), new byte[] {(byte) 0xff, (byte) 0xfe, 0x00});
        write("l-large.md", "---\nname: large\ndescription: d\n---\n" + "x".repeat(70 * 1024));
        write("notes.txt", "not an agent\n");

        AgentFiles.Loaded loaded = AgentFiles.load(List.of(folder, folder.resolve("missing")));

        assertEquals(
                List.of("explore", "general", "good"),
                loaded.definitions().stream().map(AgentDefinition::name).toList());
        String skipped = "skipped the agent file " + folder + "/";
        assertEquals(
                List.of(
                        skipped + "b-plain.md: it does not start with a --- line opening its YAML front matter.",
                        skipped
                                + "c-open.md: its front matter, opened by --- on line 1, is never closed by another --- line.",
                        loaded.problems().get(2),
                        skipped + "e-key.md: its front matter has the unknown key \"max-turns\" (the keys are name,"
                                + " description, tools, model, max_turns and data_policy).",
                        skipped + "f-policy.md: its data_policy must be full, summary or none, not \"all\".",
                        skipped + "g-name.md: its name must be 1 to 40 lower-case letters, digits, - or _, starting"
                                + " with a letter, not \"Bad Name\".",
                        skipped + "h-body.md: its body, the agent's instructions, is empty.",
                        skipped + "i-turns.md: its max_turns must be a whole number.",
                        skipped + "j-list.md: its front matter is not a list of 'key: value' lines.",
                        skipped + "k-binary.md: it is not UTF-8 text.",
                        skipped + "l-large.md: it is larger than 64 KiB."),
                loaded.problems());
        assertEquals(
                true, loaded.problems().get(2).startsWith(skipped + "d-yaml.md: its front matter is not valid YAML ("));
    }

    @Test
    void aHostileDocumentOfAliasesIsRefusedNotExpanded() throws Exception {
        StringBuilder bomb = new StringBuilder("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (int level = 1; level < 40; level++) {
            bomb.append((char) ('a' + level % 26))
                    .append(level)
                    .append(": &l")
                    .append(level)
                    .append(" [")
                    .append(String.join(
                            ", ", java.util.Collections.nCopies(10, level == 1 ? "*a" : "*l" + (level - 1))))
                    .append("]\n");
        }
        bomb.append("name: bomb\ndescription: d\n---\nx\n");
        write("bomb.md", bomb.toString());

        AgentFiles.Loaded loaded = AgentFiles.load(List.of(folder));

        assertEquals(
                List.of("explore", "general"),
                loaded.definitions().stream().map(AgentDefinition::name).toList());
        assertEquals(1, loaded.problems().size());
    }

    @Test
    void theFoldersAreTheUsersAndTheProjectsOwn() {
        assertEquals(
                List.of(Path.of("/home/u/.dockhand/agents"), Path.of("/work/p/.dockhand/agents")),
                List.of(
                        AgentFiles.userFolder(Path.of("/home/u/.dockhand")),
                        AgentFiles.projectFolder(Path.of("/work/p"))));
    }

    @Test
    void aModelTheSessionsProviderCannotServeIsSaidAndTheAgentKeepsTheSessionsModel() {
        AgentDefinition foreign = new AgentDefinition(
                "reviewer",
                "Reviews.",
                Optional.empty(),
                Optional.of("gpt-4.1-mini"),
                8,
                DataPolicy.FULL,
                "Review.",
                "reviewer.md");
        AgentDefinition own = foreign.withModel(Optional.of("claude-haiku-4-5"));
        AgentFiles.Loaded loaded = new AgentFiles.Loaded(List.of(foreign, own), List.of("skipped the agent file x."));

        AgentFiles.Loaded checked = AgentFiles.forProvider(
                loaded,
                name -> dev.dockhand.core.model.ModelFamilies.mismatch(
                        dev.dockhand.core.model.Provider.ANTHROPIC,
                        dev.dockhand.core.model.Provider.ANTHROPIC.defaultBaseUrl(),
                        name));

        assertEquals(
                new AgentFiles.Loaded(
                        List.of(foreign.withModel(Optional.empty()), own),
                        List.of(
                                "skipped the agent file x.",
                                "the agent reviewer uses the session's model, not gpt-4.1-mini: it is OpenAI's model"
                                        + " and the session's provider is Anthropic.")),
                checked);
    }
}
