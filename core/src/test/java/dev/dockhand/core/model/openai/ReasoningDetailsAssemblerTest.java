package dev.dockhand.core.model.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReasoningDetailsAssemblerTest {
    @Test
    void piecesOfOneBlockJoinAndANewIndexOrTypeOpensTheNext() {
        ReasoningDetailsAssembler details = new ReasoningDetailsAssembler();
        List<String> shown = new ArrayList<>();
        for (String piece : List.of(
                "{\"type\":\"reasoning.summary\",\"summary\":\"Plan\",\"id\":\"rs_1\",\"format\":\"openai-responses-v1\","
                        + "\"index\":0}",
                "{\"type\":\"reasoning.summary\",\"summary\":\": read.\",\"id\":null,\"format\":\"openai-responses-v1\","
                        + "\"index\":0}",
                "{\"type\":\"reasoning.encrypted\",\"data\":\"gAAAA\",\"id\":\"rs_1\",\"format\":\"openai-responses-v1\","
                        + "\"index\":0}",
                "{\"type\":\"reasoning.text\",\"text\":\"Then\",\"signature\":null,\"index\":1}",
                "{\"type\":\"reasoning.text\",\"text\":\" write.\",\"index\":1}",
                "{\"type\":\"reasoning.text\",\"text\":null,\"signature\":\"sig\",\"index\":1}")) {
            shown.add(details.accept(Json.read(piece)));
        }

        assertEquals(List.of("Plan", ": read.", "", "Then", " write.", ""), shown);
        assertEquals(
                Json.read("[{\"type\":\"reasoning.summary\",\"summary\":\"Plan: read.\",\"id\":\"rs_1\","
                        + "\"format\":\"openai-responses-v1\",\"index\":0},"
                        + "{\"type\":\"reasoning.encrypted\",\"data\":\"gAAAA\",\"id\":\"rs_1\","
                        + "\"format\":\"openai-responses-v1\",\"index\":0},"
                        + "{\"type\":\"reasoning.text\",\"text\":\"Then write.\",\"signature\":\"sig\",\"index\":1}]"),
                details.details());
    }
}
