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

/** Whether a manifest entry adds a file to the table or deletes it (Avro {@code _KIND}). */
public enum FileKind {
    ADD(0),
    DELETE(1);

    private final int value;

    FileKind(int value) {
        this.value = value;
    }

    /** The value stored in manifests. */
    public int value() {
        return value;
    }

    /** Decodes a stored value; anything but 0 or 1 is corruption of {@code source}. */
    public static FileKind fromValue(int value, Object source) {
        for (FileKind kind : values()) {
            if (kind.value == value) {
                return kind;
            }
        }
        throw Errors.corruptFile(source, "unknown entry kind " + value + " (expected 0 or 1)");
    }
}
