package dev.dockhand.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dockhand.core.conversation.Image;
import dev.dockhand.core.conversation.Message;
import dev.dockhand.core.testing.ToolImages;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which images of the history one request carries, by the limits of the API it goes to. */
class ImageBudgetTest {
    /** {@code count} images as tool results, the Nth read from {@code shot-N.png}, after a user's question. */
    private static List<Message> reads(List<Image> images) {
        List<Message> messages = new ArrayList<>();
        messages.add(new Message.System("SYSTEM"));
        messages.add(new Message.User("look"));
        for (int i = 0; i < images.size(); i++) {
            String id = "c" + (i + 1);
            messages.add(new Message.Assistant(
                    "", List.of(new dev.dockhand.core.conversation.ToolCall(id, "read_file", "{}"))));
            messages.add(new Message.ToolResult(
                    id, "read_file", "shot-" + (i + 1) + ".png is an image.", false, List.of(images.get(i))));
        }
        return messages;
    }

    private static List<Image> shots(int count, int bytes) {
        List<Image> images = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            images.add(ToolImages.png(2500, 1500, bytes, i));
        }
        return images;
    }

    /** How many of {@code count} images of {@code chars} base64 characters each a request carries, for 0 to count. */
    private static List<Integer> carried(int count, int chars, ImageBudget.Limits limits) {
        Image image = new Image("image/png", "A".repeat(chars));
        List<Integer> carried = new ArrayList<>();
        for (int n = 0; n <= count; n++) {
            carried.add(n - ImageBudget.cut(Collections.nCopies(n, image), limits));
        }
        return carried;
    }

    @Test
    void pastTwentyImagesAnthropicGetsTheNewestAndTheCutMovesInStepsOfFive() {
        List<Integer> expected =
                new ArrayList<>(IntStream.rangeClosed(0, 20).boxed().toList());
        expected.addAll(List.of(16, 17, 18, 19, 20, 16, 17, 18, 19, 20));

        assertEquals(expected, carried(30, 1_000, ImageBudget.ANTHROPIC));
    }

    @Test
    void theBytesCutInStepsTooAndOneImageAtATimeWhenAStepWouldLeaveNone() {
        // 4.7 MB of base64 each: seven fit OpenAI's 36 MB, two Gemini's 14 MB.
        assertEquals(
                List.of(0, 1, 2, 3, 4, 5, 6, 7, 3, 4, 5, 6, 7, 3, 4, 5, 6), carried(16, 4_666_668, ImageBudget.OPENAI));
        assertEquals(List.of(0, 1, 2, 2, 2, 2, 1, 2, 2, 2, 2, 1), carried(11, 4_666_668, ImageBudget.GEMINI));
        assertEquals(IntStream.rangeClosed(0, 200).boxed().toList(), carried(200, 4_666_668, ImageBudget.OLLAMA));
    }

    @Test
    void aLeftOutImageIsALineInItsResultsTextAndTheNewestGoWhole() {
        List<Image> images = shots(21, 1_000);
        List<Message> messages = reads(images);

        ImageBudget budget = ImageBudget.plan(messages, true, ImageBudget.ANTHROPIC);

        assertEquals(
                new ImageInput.Split(
                        List.of(),
                        "shot-1.png is an image.\n[image: image/png, 1000 bytes, 2500x1500 px, left out of this"
                                + " request: newer images fill the 20 images and 24 MB Anthropic is sent at most;"
                                + " call the tool again to see it]"),
                budget.split((Message.ToolResult) messages.get(3)));
        assertEquals(
                new ImageInput.Split(List.of(images.get(5)), "shot-6.png is an image."),
                budget.split((Message.ToolResult) messages.get(13)));
    }

    /**
     * Each request is planned afresh: the lines for left-out images stay the same bytes until the cut moves (the
     * prompt cache keeps what comes before the first change), and the same history goes whole to an API with room.
     */
    @Test
    void eachRequestIsPlannedAfreshFromTheWholeHistory() {
        List<Image> images = shots(27, 1_000);
        List<Message> fewer = reads(images.subList(0, 22));
        List<Message> more = reads(images);
        Message.ToolResult oldest = (Message.ToolResult) more.get(3);

        ImageInput.Split inFewer =
                ImageBudget.plan(fewer, true, ImageBudget.ANTHROPIC).split((Message.ToolResult) fewer.get(3));
        ImageInput.Split inMore =
                ImageBudget.plan(more, true, ImageBudget.ANTHROPIC).split(oldest);

        assertEquals(inFewer, inMore);
        assertEquals(
                new ImageInput.Split(List.of(images.get(0)), "shot-1.png is an image."),
                ImageBudget.plan(more, true, ImageBudget.OLLAMA).split(oldest));
    }

    @Test
    void imagesTheApiWillNotTakeCountForNothing() {
        List<Image> images = shots(21, 1_000);
        images.set(20, Image.of("image/png", new byte[(int) Image.MAX_BYTES + 1]));
        List<Message> messages = reads(images);

        ImageBudget anthropic = ImageBudget.plan(messages, true, ImageBudget.ANTHROPIC);
        ImageBudget noVision = ImageBudget.plan(messages, false, ImageBudget.ANTHROPIC);

        assertEquals(
                new ImageInput.Split(List.of(images.get(0)), "shot-1.png is an image."),
                anthropic.split((Message.ToolResult) messages.get(3)));
        assertEquals(
                new ImageInput.Split(
                        List.of(),
                        "shot-21.png is an image.\n[image: image/png, 3.8 MB, not shown: larger than the 3.75 MB an"
                                + " image may be]"),
                anthropic.split((Message.ToolResult) messages.get(43)));
        assertEquals(
                new ImageInput.Split(
                        List.of(),
                        "shot-1.png is an image.\n[image: image/png, 1000 bytes, not shown: this model does not take"
                                + " images]"),
                noVision.split((Message.ToolResult) messages.get(3)));
    }
}
