package dev.dockhand.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dockhand.core.Json;
import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.conversation.ToolCall;
import java.util.List;

/**
 * A conversation whose tool round returned an image, for the request writers' tests: the first of two parallel calls
 * returned a screenshot beside its text, the second text alone, then the model answered and the user asked again, so
 * a writer that carries images after the round must place them between the last result and the answer.
 */
public final class ToolImages {
    /** A real 1×1 PNG (69 bytes), so the rules' check of the bytes against the declared type passes. */
    public static final String PNG_BASE64 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

    public static final Image PNG = new Image("image/png", PNG_BASE64);

    private ToolImages() {}

    public static List<Message> conversation() {
        return List.of(
                new Message.System("SYSTEM"),
                new Message.User("look"),
                new Message.Assistant(
                        "",
                        List.of(new ToolCall("c1", "shot", "{}"), new ToolCall("c2", "read_file", "{\"path\":\"a\"}"))),
                new Message.ToolResult("c1", "shot", "Screenshot taken.", false, List.of(PNG)),
                new Message.ToolResult("c2", "read_file", "A", false),
                new Message.Assistant("Done.", List.of()),
                new Message.User("again?"));
    }

    /** {@code providers/<provider>/<name>.json}, a request body written from the provider's API reference. */
    public static JsonNode request(String provider, String name) {
        return Json.read(ProviderFixtures.text("/providers/" + provider + "/" + name + ".json")
                .replace("${PNG}", PNG_BASE64));
    }
}
