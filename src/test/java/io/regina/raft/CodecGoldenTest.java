package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.Result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decodes every golden fixture under {@code codec/} (written by {@link GoldenFixtures}) and checks it
 * gives the value frozen beside it; fixtures of the version this node writes must also re-encode to
 * the same bytes. A change that makes an old log entry, reply or snapshot unreadable fails here.
 *
 * <p>Never regenerate a fixture to make this pass: a new layout is a new version, with its own
 * directory, and the old directories stay and keep decoding. Bumping the state image layout bumps
 * {@link SnapshotCodec#VERSION} too, as the file version names the layout it frames.
 */
class CodecGoldenTest {

    @TempDir
    Path tmp;

    static Path resource(String name) {
        URL url = CodecGoldenTest.class.getClassLoader().getResource(name);
        assertThat(url).as("test resource %s", name).isNotNull();
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every version directory under {@code codec/<kind>/}, oldest first. */
    static Stream<Path> versions(String kind) throws IOException {
        return Files.list(resource("codec/" + kind)).filter(Files::isDirectory).sorted();
    }

    static boolean current(Path versionDir, int version) {
        return versionDir.getFileName().toString().equals("v" + version);
    }

    static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The frozen decoded value: the {@code .txt} beside a {@code .bin}, without its final newline. */
    static String expected(Path bin) {
        Path txt = bin.resolveSibling(bin.getFileName().toString().replace(".bin", ".txt"));
        try {
            String text = Files.readString(txt, StandardCharsets.UTF_8);
            return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One dynamic test per {@code .bin} in {@code codec/log/v*}/{@code dir}. */
    static Stream<DynamicTest> eachFixture(String dir, FixtureCheck check) throws IOException {
        return versions("log").flatMap(version -> {
            try {
                return Files.list(version.resolve(dir)).filter(f -> f.toString().endsWith(".bin")).sorted()
                        .map(bin -> DynamicTest.dynamicTest(version.getFileName() + "/" + dir + "/"
                                + bin.getFileName(), () -> check.accept(bin, current(version, EntryCodec.VERSION))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    interface FixtureCheck {
        void accept(Path bin, boolean current) throws Exception;
    }

    @TestFactory
    Stream<DynamicTest> clientRequestsDecodeForever() throws IOException {
        return eachFixture("request", (bin, current) -> {
            byte[] bytes = bytes(bin);
            List<Command> commands = EntryCodec.decodeRequest(ByteBuffer.wrap(bytes));
            assertThat(commands.toString()).isEqualTo(expected(bin));
            if (current) {
                assertThat(EntryCodec.encodeRequestOf(commands)).isEqualTo(bytes);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> logEntriesDecodeForever() throws IOException {
        return eachFixture("entry", (bin, current) -> {
            byte[] bytes = bytes(bin);
            EntryCodec.Entry entry = EntryCodec.decodeEntry(ByteBuffer.wrap(bytes));
            assertThat(entry.toString()).isEqualTo(expected(bin));
            if (current) {
                assertThat(EntryCodec.encodeEntry(entry.now(), entry.commands())).isEqualTo(bytes);
                Path request = bin.getParent().resolveSibling("request").resolve(bin.getFileName());
                assertThat(EntryCodec.entryFromRequest(entry.now(), ByteString.copyFrom(bytes(request))).toByteArray())
                        .as("the leader's entry spliced from the request").isEqualTo(bytes);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> entryRepliesDecodeForever() throws IOException {
        return eachFixture("reply", (bin, current) -> {
            byte[] bytes = bytes(bin);
            List<Result> results = EntryCodec.decodeResults(ByteBuffer.wrap(bytes));
            assertThat(String.valueOf(results)).isEqualTo(expected(bin));
            if (current) {
                assertThat(EntryCodec.encodeResults(results)).isEqualTo(bytes);
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> snapshotsLoadForever() throws IOException {
        return versions("snapshot").map(version -> DynamicTest.dynamicTest(version.getFileName().toString(), () -> {
            Path bin = version.resolve(GoldenFixtures.SNAPSHOT + ".bin");
            SnapshotCodec.Loaded<BrokerState> loaded = SnapshotCodec.read(bin, BrokerState::readFrom);
            if (current(version, SnapshotCodec.VERSION)) {
                Path rewritten = tmp.resolve(version.getFileName() + ".bin");
                SnapshotCodec.write(rewritten, loaded.term(), loaded.index(), loaded.lastNow(),
                        loaded.state()::writeTo);
                assertThat(Files.readAllBytes(rewritten)).as("the loaded state written again").isEqualTo(bytes(bin));
            }
            String answers = GoldenFixtures.snapshotHeader(loaded.term(), loaded.index(), loaded.lastNow())
                    + GoldenFixtures.probe(loaded.state(), loaded.lastNow());
            assertThat(answers).isEqualTo(expected(bin) + "\n");
        }));
    }

    @Test
    void everyOpHasFixturesInTheVersionThisNodeWrites() {
        Path log = resource(GoldenFixtures.LOG_FIXTURES);
        for (CommandOp op : CommandOp.values()) {
            String name = GoldenFixtures.fixtureName(op) + ".bin";
            assertThat(log.resolve("request").resolve(name)).as("run GoldenFixtures for the new op %s", op).exists();
            assertThat(log.resolve("entry").resolve(name)).as("run GoldenFixtures for the new op %s", op).exists();
        }
        for (ResultOp op : ResultOp.values()) {
            String name = GoldenFixtures.fixtureName(op) + ".bin";
            assertThat(log.resolve("reply").resolve(name)).as("run GoldenFixtures for the new op %s", op).exists();
        }
        assertThat(resource(GoldenFixtures.SNAPSHOT_FIXTURES).resolve(GoldenFixtures.SNAPSHOT + ".bin")).exists();
    }
}
