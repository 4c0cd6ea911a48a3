package dev.dockhand.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the version Maven wrote into the jar at build time. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {
            "dockhand " + properties.getProperty("version", "unknown"),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
        };
    }
}
