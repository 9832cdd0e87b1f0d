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
package io.dovetail.flink.sink;

import io.dovetail.table.error.Errors;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an {@code INSERT OVERWRITE} replaces: the whole table, the partitions its static partition
 * spec names, or (dynamic overwrite, Paimon's default {@code dynamic-partition-overwrite = true})
 * only the partitions the statement writes rows to, within the static spec.
 *
 * @param staticPartition the {@code PARTITION (k = v, ...)} values, as partition directories spell
 *     them; empty for none
 * @param dynamic whether a partitioned table's overwrite is limited to the partitions written
 */
public record OverwriteScope(Map<String, String> staticPartition, boolean dynamic)
        implements Serializable {

    /** The table option choosing dynamic partition overwrite (default true, as in Paimon). */
    public static final String DYNAMIC_PARTITION_OVERWRITE = "dynamic-partition-overwrite";

    public OverwriteScope {
        staticPartition = new LinkedHashMap<>(staticPartition);
    }

    /** The scope of an overwrite of a table with these options and static partition values. */
    public static OverwriteScope of(
            Map<String, String> staticPartition, Map<String, String> tableOptions) {
        String dynamic = tableOptions.getOrDefault(DYNAMIC_PARTITION_OVERWRITE, "true").trim();
        if (!dynamic.equalsIgnoreCase("true") && !dynamic.equalsIgnoreCase("false")) {
            throw Errors.invalidArgument(
                    "Option "
                            + DYNAMIC_PARTITION_OVERWRITE
                            + " must be 'true' or 'false', got '"
                            + dynamic
                            + "'.");
        }
        return new OverwriteScope(staticPartition, Boolean.parseBoolean(dynamic));
    }
}
