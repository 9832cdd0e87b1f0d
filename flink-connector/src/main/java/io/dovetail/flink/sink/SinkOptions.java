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

    private SinkOptions() {}
}
