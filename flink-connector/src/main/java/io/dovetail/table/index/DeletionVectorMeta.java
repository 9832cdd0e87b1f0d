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
package io.dovetail.table.index;

import io.dovetail.table.error.Errors;

import javax.annotation.Nullable;

/**
 * Where one data file's deletion vector sits in a DV index file ({@code
 * record__DELETIONS_VECTORS_RANGES}: {@code f0}, {@code f1}, {@code f2}, {@code _CARDINALITY}).
 *
 * @param offset byte offset of the vector's 4-byte length prefix in the index file
 * @param length for 32-bit vectors the payload length (magic plus bitmap)
 * @param cardinality number of deleted positions, null if not recorded
 */
public record DeletionVectorMeta(
        String dataFileName, int offset, int length, @Nullable Long cardinality) {

    public DeletionVectorMeta {
        if (dataFileName == null || dataFileName.isEmpty()) {
            throw Errors.invalidArgument("A deletion vector meta needs a data file name");
        }
        if (offset < 1 || length < 0 || (cardinality != null && cardinality < 0)) {
            throw Errors.invalidArgument(
                    "Invalid deletion vector range for data file "
                            + dataFileName
                            + ": offset "
                            + offset
                            + ", length "
                            + length
                            + ", cardinality "
                            + cardinality);
        }
    }
}
