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
package io.dovetail.actions;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.types.logical.LogicalType;

import java.util.List;

/** Names a manifest entry's partition and bucket by its directory, e.g. {@code dt=x/bucket-0}. */
final class BucketDirNames {

    private final BinaryRowCodec partitionCodec;
    private final PartitionPaths partitionPaths;

    /**
     * @param schema the schema the snapshot was committed with (it fixes the partition types)
     */
    BucketDirNames(TableSchema schema) {
        List<LogicalType> types =
                schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList();
        this.partitionCodec = BinaryRowCodec.of(types);
        this.partitionPaths =
                PartitionPaths.fromOptions(schema.partitionKeys(), types, schema.options());
    }

    String of(byte[] partition, int bucket, Object source) {
        String partitionPath = partitionPaths.path(partitionCodec.deserialize(partition, source));
        return (partitionPath.isEmpty() ? "" : partitionPath + "/")
                + TablePaths.BUCKET_DIR_PREFIX
                + bucket;
    }
}
