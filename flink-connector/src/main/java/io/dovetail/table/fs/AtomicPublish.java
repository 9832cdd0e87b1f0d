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

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Create-if-absent publication of immutable metadata files ({@code snapshot-N}, {@code schema-N}):
 * the bytes are written to a hidden temporary file {@code .<name>.<uuid>.tmp} in the target
 * directory (the leading dot keeps it out of every listing that parses names) and then moved to the
 * target name only if that name is still free. Exactly one of several racing writers wins; the
 * winner's file is complete when it becomes visible; temporary files are always removed.
 *
 * <p>Guarantee per file system:
 *
 * <ul>
 *   <li>Local ({@code /path}, {@code file:/path}): the temporary file is written, forced to disk,
 *       and hard-linked to the target name. {@code link(2)} fails atomically when the target
 *       exists, across threads and processes (also on NFS). A file system without hard links is
 *       reported as unsupported rather than published unsafely.
 *   <li>HDFS and other Hadoop-compatible file systems with atomic rename: an existence check, then
 *       rename, which fails (returns false) when the target exists. Safe because the rename itself
 *       refuses to overwrite.
 *   <li>S3 ({@code s3://}, {@code s3a://}, {@code s3p://}) and S3-compatible stores: one {@code
 *       PUT} with {@code If-None-Match: *}, which the store refuses when the key exists; each
 *       bucket is probed once for honouring the condition ({@link S3ConditionalPut}).
 *   <li>Other object stores (OSS, GCS, Azure blob ...): rename is copy + delete and a racing writer
 *       can silently replace the winner; their conditional writes ({@code ifGenerationMatch=0},
 *       {@code If-None-Match: *}) are not used yet, so publishing there is refused.
 * </ul>
 */
final class AtomicPublish {

    /** Schemes of the S3 API, published with conditional PUTs. */
    private static final Set<String> S3_SCHEMES = Set.of("s3", "s3a", "s3p");

    /** Schemes of other stores whose rename is not an atomic create-if-absent. */
    private static final Set<String> OTHER_OBJECT_STORE_SCHEMES =
            Set.of("s3n", "oss", "gs", "abfs", "abfss", "wasb", "wasbs", "cosn", "obs");

    private AtomicPublish() {}

    /** The strategy per file system: the one place that picks it. */
    static boolean publishIfAbsent(Path target, byte[] bytes, Writers writers) {
        FileSystem fs = FileIO.fileSystem(target);
        String scheme = String.valueOf(fs.getUri().getScheme()).toLowerCase(Locale.ROOT);
        if (S3_SCHEMES.contains(scheme)) {
            return S3ConditionalPut.publishIfAbsent(
                    target.makeQualified(fs).toUri(), bytes, writers);
        }
        if (OTHER_OBJECT_STORE_SCHEMES.contains(scheme)) {
            throw Errors.unsupported(
                    "atomic create-if-absent of "
                            + target
                            + " on the object store '"
                            + scheme
                            + "'",
                    "Dovetail commits on object stores through S3 conditional writes (s3://,"
                            + " s3a://); use S3 or a file system with atomic rename (HDFS, local)"
                            + " for the warehouse");
        }
        Optional<java.nio.file.Path> local = LocalFiles.toNio(fs, target);
        if (local.isPresent()) {
            return publishLocal(local.get(), bytes, target);
        }
        return publishByRename(fs, target, bytes);
    }

    static String tempName(String targetName) {
        return "." + targetName + "." + UUID.randomUUID() + ".tmp";
    }

    private static boolean publishLocal(java.nio.file.Path target, byte[] bytes, Path original) {
        java.nio.file.Path temp = target.resolveSibling(tempName(target.getFileName().toString()));
        try {
            Files.createDirectories(target.getParent());
            writeDurably(temp, bytes);
            Files.createLink(target, temp);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (UnsupportedOperationException e) {
            throw Errors.unsupported(
                    "publishing " + original + ": the local file system has no hard links",
                    "Put the warehouse on a file system that supports hard links");
        } catch (IOException e) {
            throw Errors.io("publish", original, e);
        } finally {
            deleteQuietly(temp);
        }
    }

    private static void writeDurably(java.nio.file.Path file, byte[] bytes) throws IOException {
        try (FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    private static boolean publishByRename(FileSystem fs, Path target, byte[] bytes) {
        Path temp = new Path(target.getParent(), tempName(target.getName()));
        FileIO.writeNew(temp, bytes);
        try {
            if (fs.exists(target)) {
                return false;
            }
            return fs.rename(temp, target);
        } catch (IOException e) {
            throw Errors.io("publish", target, e);
        } finally {
            FileIO.deleteQuietly(temp);
        }
    }

    private static void deleteQuietly(java.nio.file.Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover hidden temp file is harmless: listings skip dot-files.
        }
    }
}
