package dev.dockhand.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerFilesTest {

    @Test
    void aListingIsReadIntoEntriesLeavingOutOtherKindsAndPathsThatClimbOut() {
        String listing = String.join(
                "\0",
                "d 4096 1700000000.1000000000 755 src",
                "",
                "f 12 1700000001.2000000000 644 src/a file.txt",
                "",
                "f 30 1700000002.3000000000 755 run.sh",
                "",
                "l 4 1700000003.4000000000 777 link",
                "/etc",
                "p 0 1700000004.5000000000 644 fifo",
                "",
                "f 1 1700000005.6000000000 644 ../../etc/passwd",
                "",
                "f 1 1700000006.7000000000 644 src/./x",
                "",
                "");

        assertEquals(
                Map.of(
                        "src", new SyncEntry(SyncEntry.Type.DIR, 0, "", 0755, ""),
                        "src/a file.txt", new SyncEntry(SyncEntry.Type.FILE, 12, "1700000001.2000000000", 0644, ""),
                        "run.sh", new SyncEntry(SyncEntry.Type.FILE, 30, "1700000002.3000000000", 0755, ""),
                        "link", new SyncEntry(SyncEntry.Type.LINK, 0, "1700000003.4000000000", 0777, "/etc")),
                ContainerFiles.parse(listing, ""));
    }

    @Test
    void aPrunedFolderIsMatchedAsItselfNotAsAPattern() {
        assertEquals("/w/a\\[1\\]\\*\\?\\\\b", ContainerFiles.escapeGlob("/w/a[1]*?\\b"));
    }
}
