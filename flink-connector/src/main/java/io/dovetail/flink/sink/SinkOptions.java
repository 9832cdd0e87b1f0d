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

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Options of writes to Dovetail tables (table options or per-statement hints). */
public final class SinkOptions {

    public static final ConfigOption<Integer> PARALLELISM =
            ConfigOptions.key("sink.parallelism")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the writers; the committer always runs at 1."
                                    + " Default: the parallelism of the input.");

    public static final ConfigOption<Integer> MAX_OPEN_PARTITIONS =
            ConfigOptions.key("sink.max-open-partitions")
                    .intType()
                    .defaultValue(32)
                    .withDescription(
                            "Most partitions a writer keeps a file open for; the least recently"
                                    + " written one's file is finished when another opens. Bounds"
                                    + " the memory of buffered row groups.");

    public static final ConfigOption<MemorySize> COLUMN_UPDATES_BUFFER_SIZE =
            ConfigOptions.key("sink.column-updates.buffer-size")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription(
                            "Heap a streaming t$column_updates writer gives the updates it holds"
                                    + " between checkpoints; when they take more, it writes them"
                                    + " out early (the checkpoint's commit then merges its files"
                                    + " of one row-range group row by row).");

    private SinkOptions() {}
}
