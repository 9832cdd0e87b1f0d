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
package io.dovetail.table.manifest;

import io.dovetail.table.error.Errors;

/**
 * Where a data file came from (Avro {@code _FILE_SOURCE}): APPEND for new data, including
 * partial-column files, COMPACT for compaction output. Row-tracking tables require it to be set.
 */
public enum FileSource {
    APPEND(0),
    COMPACT(1);

    private final int value;

    FileSource(int value) {
        this.value = value;
    }

    /** The value stored in manifests. */
    public int value() {
        return value;
    }

    /** Decodes a stored value; anything but 0 or 1 is corruption of {@code source}. */
    public static FileSource fromValue(int value, Object source) {
        for (FileSource fileSource : values()) {
            if (fileSource.value == value) {
                return fileSource;
            }
        }
        throw Errors.corruptFile(source, "unknown file source " + value + " (expected 0 or 1)");
    }
}
