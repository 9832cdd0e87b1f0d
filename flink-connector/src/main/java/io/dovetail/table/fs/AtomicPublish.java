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
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.UUID;

/**
 * Create-if-absent publication of immutable metadata files (snapshot-N, schema-N).
 *
 * <p>Guarantee per file system:
 *
 * <ul>
 *   <li>Local ({@code file:}): the temporary file is hard-linked to the target name; {@code link}
 *       fails atomically when the target exists, across threads and processes.
 *   <li>HDFS and other Hadoop-compatible stores with atomic rename: rename of the temporary file,
 *       which fails (returns false) when the target exists.
 *   <li>Object stores (S3, OSS): rename is a copy and not atomic; two writers racing for the same
 *       name can both succeed. Such stores need an external lock (not provided yet).
 * </ul>
 */
final class AtomicPublish {

    private AtomicPublish() {}

    static boolean publishIfAbsent(Path target, byte[] bytes) {
        Path temp =
                new Path(
                        target.getParent(),
                        "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        FileIO.writeNew(temp, bytes);
        try {
            FileSystem fs = FileIO.fileSystem(target);
            if ("file".equals(fs.getUri().getScheme())) {
                return linkLocal(temp, target);
            }
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

    private static boolean linkLocal(Path temp, Path target) throws IOException {
        try {
            Files.createLink(Paths.get(target.toUri()), Paths.get(temp.toUri()));
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }
}
