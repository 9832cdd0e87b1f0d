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
package io.dovetail.table.maintenance;

import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotJson;

import org.apache.flink.core.fs.Path;

import java.util.Map;
import java.util.TreeMap;

/** A table's tags: {@code tag/tag-<name>} files, each holding the snapshot it keeps alive. */
final class TagFiles {

    private static final String PREFIX = "tag-";

    private TagFiles() {}

    /** Every tag's snapshot by tag name, in name order. */
    static Map<String, Snapshot> byName(TablePaths paths) {
        Map<String, Snapshot> tags = new TreeMap<>();
        Path dir = paths.tagDir();
        if (!FileIO.exists(dir)) {
            return tags;
        }
        for (String name : FileIO.listNames(dir)) {
            if (name.startsWith(PREFIX)) {
                Path file = new Path(dir, name);
                tags.put(
                        name.substring(PREFIX.length()),
                        SnapshotJson.fromBytes(FileIO.readFully(file, "tag " + name), file));
            }
        }
        return tags;
    }

    static Path file(TablePaths paths, String name) {
        return new Path(paths.tagDir(), PREFIX + name);
    }
}
