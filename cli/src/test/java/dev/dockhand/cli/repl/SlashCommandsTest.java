package dev.dockhand.cli.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.cli.commands.BuiltinCommands;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SlashCommandsTest {
    /** A -p run refuses the built-ins and custom commands cannot take them: both read BuiltinCommands. */
    @Test
    void theNamesACustomCommandCannotTakeAreExactlyTheBuiltIns() {
        Set<String> builtIn = new TreeSet<>(Set.of("exit"));
        SlashCommands.ALL.forEach(command -> builtIn.add(command.name()));

        assertEquals(builtIn, new TreeSet<>(BuiltinCommands.NAMES));
    }
}
