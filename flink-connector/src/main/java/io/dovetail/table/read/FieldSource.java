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
package io.dovetail.table.read;

import io.dovetail.table.types.DataField;

import javax.annotation.Nullable;

import java.util.List;

/** Where one output column of a group comes from; chosen by {@link ProviderSelection}. */
public sealed interface FieldSource {

    /**
     * Column {@code column} of the group's file {@code file} (an index into {@link
     * FileGroup#files()}); {@code stored} is the field as that file's schema declares it.
     */
    record FromFile(int file, int column, DataField stored) implements FieldSource {}

    /**
     * A BLOB column from the group's {@code .blob} files {@code files} (indexes into {@link
     * FileGroup#files()}), every version of them; {@code stored} is the field as their schema
     * declares it. With {@code asDescriptors} each value is a serialized descriptor of its bytes
     * inside their file, not the bytes.
     */
    record FromBlobFiles(List<Integer> files, DataField stored, boolean asDescriptors)
            implements FieldSource {

        public FromBlobFiles {
            files = List.copyOf(files);
        }
    }

    /**
     * A VECTOR column from the group's vector-store files {@code files} (indexes into {@link
     * FileGroup#files()}: one bunch, every version of it, each file listing the bunch's columns
     * read), column {@code column} of them.
     */
    record FromVectorFiles(List<Integer> files, int column) implements FieldSource {

        public FromVectorFiles {
            files = List.copyOf(files);
        }
    }

    /** No file of the group wrote the column: NULL. */
    record Null() implements FieldSource {}

    /**
     * {@code _ROW_ID}: the group's first row id plus the position, or the physical value of column
     * {@code physicalColumn} of file {@code file} where it is not null (-1: no physical).
     */
    record RowId(int file, int physicalColumn) implements FieldSource {}

    /** {@code _SEQUENCE_NUMBER}: the max sequence number of the group's newest normal file. */
    record SequenceNumber(long value) implements FieldSource {}

    /**
     * A partition column: the group's {@link PartitionValues} value (a Flink internal value, null
     * for a NULL partition) in every row, never decoded from a file.
     */
    record PartitionValue(@Nullable Object value) implements FieldSource {}
}
