package io.regina.faults;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A size-limited file system (tmpfs) mounted on a directory for the length of a lane, and a filler
 * file on it that takes the free space away and gives it back. Mounting needs root: where it is
 * refused the lane is skipped, saying why. {@link #close()} unmounts the path it mounted.
 */
final class SmallDisk implements AutoCloseable {

    private static final int CHUNK = 1 << 20;

    private final Path mountPoint;
    private final Path filler;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
        this.filler = mountPoint.resolve("filler");
    }

    /** Mounts a tmpfs of {@code megabytes} on {@code mountPoint} (created), or skips the test. */
    static SmallDisk mount(Path mountPoint, int megabytes) throws IOException, InterruptedException {
        Files.createDirectories(mountPoint);
        String refused;
        try {
            Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs",
                    mountPoint.toString()).redirectErrorStream(true).start();
            String output = new String(mount.getInputStream().readAllBytes()).trim();
            refused = mount.waitFor() == 0 ? null : "exit " + mount.exitValue() + ": " + output;
        } catch (IOException noMountCommand) {
            refused = noMountCommand.getMessage();
        }
        Assumptions.assumeTrue(refused == null, "mount -t tmpfs was refused (" + refused
                + "): the disk-full lane needs root to mount a size-limited data directory, skipped");
        return new SmallDisk(mountPoint);
    }

    Path path() {
        return mountPoint;
    }

    long usableBytes() throws IOException {
        return Files.getFileStore(mountPoint).getUsableSpace();
    }

    /** Writes a filler file (real bytes: tmpfs does not count a sparse one) until {@code leftBytes} are free. */
    void fillLeaving(long leftBytes) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(CHUNK);
        try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            for (long toWrite = usableBytes() - leftBytes; toWrite > 0; toWrite -= zeros.limit()) {
                zeros.clear().limit((int) Math.min(CHUNK, toWrite));
                out.write(zeros);
            }
            out.force(true);
        }
    }

    /** Deletes the filler: the space it took is free again. */
    void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Process umount = new ProcessBuilder(List.of("umount", mountPoint.toString())).inheritIO().start();
        if (!umount.waitFor(30, TimeUnit.SECONDS) || umount.exitValue() != 0) {
            throw new IllegalStateException("umount " + mountPoint + " failed: the tmpfs is still mounted");
        }
    }
}
