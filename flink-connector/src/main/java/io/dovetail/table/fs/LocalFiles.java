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

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Recognises Flink paths on the local file system and maps them to NIO paths. */
final class LocalFiles {

    private LocalFiles() {}

    /**
     * The NIO path of {@code path} if {@code fs} is the local file system; accepts {@code /tmp/x},
     * {@code file:/tmp/x}, {@code file:///tmp/x} and relative paths (against the working
     * directory).
     */
    static Optional<java.nio.file.Path> toNio(FileSystem fs, Path path) {
        if (!"file".equals(fs.getUri().getScheme())) {
            return Optional.empty();
        }
        return Optional.of(Paths.get(path.makeQualified(fs).toUri()));
    }

    /**
     * The entry names of a local directory, read without touching the entries (which may be deleted
     * concurrently); a missing directory has none.
     */
    static List<String> names(java.nio.file.Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(dir)) {
            for (java.nio.file.Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return names;
    }
}
