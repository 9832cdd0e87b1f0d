/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.dovetail.table.fs;

import io.dovetail.table.error.Errors;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * All file access of the table layer, over Flink's {@link FileSystem} so that {@code file://},
 * {@code hdfs://} and {@code s3://} behave alike. Metadata files are immutable: they are created
 * once with {@link #writeNew} or {@link #publishIfAbsent} and never overwritten; only hint files
 * use {@link #overwriteHint}. Paths without a scheme resolve to Flink's default file system (local
 * unless configured otherwise).
 */
public final class FileIO {

    private FileIO() {}

    public static FileSystem fileSystem(Path path) {
        try {
            return path.getFileSystem();
        } catch (IOException e) {
            throw Errors.io("open the file system of", path, e);
        }
    }

    public static boolean exists(Path path) {
        try {
            return fileSystem(path).exists(path);
        } catch (IOException e) {
            throw Errors.io("check existence of", path, e);
        }
    }

    /** Reads a whole file; a missing file is reported as referenced by {@code referencedBy}. */
    public static byte[] readFully(Path path, String referencedBy) {
        try (FSDataInputStream in = fileSystem(path).open(path)) {
            return readAll(in);
        } catch (FileNotFoundException e) {
            throw Errors.missingFile(path, referencedBy);
        } catch (IOException e) {
            if (!exists(path)) {
                throw Errors.missingFile(path, referencedBy);
            }
            throw Errors.io("read", path, e);
        }
    }

    /** Opens a stream; the caller closes it. A missing file is a clear error. */
    public static FSDataInputStream open(Path path, String referencedBy) {
        try {
            return fileSystem(path).open(path);
        } catch (FileNotFoundException e) {
            throw Errors.missingFile(path, referencedBy);
        } catch (IOException e) {
            if (!exists(path)) {
                throw Errors.missingFile(path, referencedBy);
            }
            throw Errors.io("open", path, e);
        }
    }

    /** Creates a new file that must not exist yet; the caller closes the stream. */
    public static FSDataOutputStream createNew(Path path) {
        try {
            return fileSystem(path).create(path, FileSystem.WriteMode.NO_OVERWRITE);
        } catch (IOException e) {
            throw Errors.io("create", path, e);
        }
    }

    /** Writes a whole new file that must not exist yet. */
    public static void writeNew(Path path, byte[] bytes) {
        try (FSDataOutputStream out = createNew(path)) {
            out.write(bytes);
        } catch (IOException e) {
            throw Errors.io("write", path, e);
        }
    }

    /**
     * Publishes an immutable metadata file only if {@code target} does not exist yet; returns false
     * when another writer already holds the name. See {@link AtomicPublish} for the guarantee per
     * file system; {@code writers} matters only on a store that cannot refuse a second create.
     */
    public static boolean publishIfAbsent(Path target, byte[] bytes, Writers writers) {
        return AtomicPublish.publishIfAbsent(target, bytes, writers);
    }

    /**
     * Sets the Flink configuration whose S3 keys ({@code s3.endpoint}, {@code s3.access-key} ...)
     * the conditional PUTs on S3 use: the one given to {@link FileSystem#initialize} in an embedded
     * set-up. Without it, the configuration Flink processes load from {@code FLINK_CONF_DIR} is
     * used.
     */
    public static void configureObjectStores(Configuration flinkConfiguration) {
        S3Settings.configure(flinkConfiguration);
    }

    /**
     * Replaces a small hint file ({@code LATEST}, {@code EARLIEST}); readers treat it as a hint. On
     * the local file system the new content replaces the old one atomically (temp file + rename),
     * so concurrent writers never interleave bytes; elsewhere the file is overwritten in place.
     */
    public static void overwriteHint(Path path, byte[] bytes) {
        FileSystem fs = fileSystem(path);
        Optional<java.nio.file.Path> local = LocalFiles.toNio(fs, path);
        if (local.isPresent()) {
            replaceLocal(local.get(), bytes, path);
            return;
        }
        try (FSDataOutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
            out.write(bytes);
        } catch (IOException e) {
            throw Errors.io("write hint", path, e);
        }
    }

    private static void replaceLocal(java.nio.file.Path target, byte[] bytes, Path original) {
        java.nio.file.Path temp =
                target.resolveSibling(AtomicPublish.tempName(target.getFileName().toString()));
        try {
            Files.createDirectories(target.getParent());
            Files.write(temp, bytes, StandardOpenOption.CREATE_NEW);
            Files.move(
                    temp,
                    target,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw Errors.io("write hint", original, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // A leftover hidden temp file is harmless: listings skip dot-files.
            }
        }
    }

    public static long length(Path path) {
        try {
            return fileSystem(path).getFileStatus(path).getLen();
        } catch (FileNotFoundException e) {
            throw Errors.missingFile(path, "a size lookup");
        } catch (IOException e) {
            throw Errors.io("stat", path, e);
        }
    }

    /**
     * Lists a directory; a missing directory lists as empty. Entries that vanish while listing
     * (another writer's temporary files) are skipped rather than failing the listing.
     */
    public static List<FileStatus> list(Path dir) {
        FileSystem fs = fileSystem(dir);
        Optional<java.nio.file.Path> local = LocalFiles.toNio(fs, dir);
        try {
            if (local.isPresent()) {
                List<FileStatus> statuses = new ArrayList<>();
                for (String name : LocalFiles.names(local.get())) {
                    try {
                        statuses.add(fs.getFileStatus(ChildPaths.below(dir, name)));
                    } catch (FileNotFoundException e) {
                        // deleted since the directory was read
                    }
                }
                return statuses;
            }
            if (!fs.exists(dir)) {
                return List.of();
            }
            FileStatus[] statuses = fs.listStatus(dir);
            return statuses == null ? List.of() : new ArrayList<>(List.of(statuses));
        } catch (IOException e) {
            throw Errors.io("list", dir, e);
        }
    }

    /** The names in a directory, without per-entry metadata; a missing directory lists as empty. */
    public static List<String> listNames(Path dir) {
        FileSystem fs = fileSystem(dir);
        Optional<java.nio.file.Path> local = LocalFiles.toNio(fs, dir);
        if (local.isPresent()) {
            try {
                return LocalFiles.names(local.get());
            } catch (IOException e) {
                throw Errors.io("list", dir, e);
            }
        }
        List<String> names = new ArrayList<>();
        for (FileStatus status : list(dir)) {
            names.add(status.getPath().getName());
        }
        return names;
    }

    public static void mkdirs(Path dir) {
        try {
            fileSystem(dir).mkdirs(dir);
        } catch (IOException e) {
            throw Errors.io("create directory", dir, e);
        }
    }

    /** Deletes a file if it exists; returns whether something was deleted. */
    public static boolean deleteQuietly(Path path) {
        try {
            return fileSystem(path).delete(path, false);
        } catch (IOException e) {
            return false;
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }
}
