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
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Builds the append topology of a Dovetail table: full rows (all columns of the table's schema, in
 * order) to new files, committed by {@link CommitTopology}:
 *
 * <pre>
 *   rows ──▶ [append writer × p] ──committables, global──▶ [committer × 1] ──▶ (discarding end)
 *              files per partition,                        one snapshot per checkpoint
 *              handed over before each                     (or per batch job), then
 *              barrier and at end of input                 snapshot expiry
 * </pre>
 *
 * The writers run at {@code parallelism} (default: the input's); the committer always at
 * parallelism 1. A streaming job commits on checkpoint completion, its final data included when its
 * input is bounded; a batch job, and a bounded job without checkpointing, commits at the end of
 * input. An unbounded job without checkpointing would never commit and is refused. Each job gets
 * its own commit user, kept in the committer's state across restarts. Row-level writes (UPDATE,
 * DELETE, column updates) are {@code io.dovetail.flink.dml.RowLevelSink}'s.
 */
public final class DovetailSink {

    private final TablePaths table;
    private final TableSchema schema;
    private final Map<String, String> writeOptions;
    @Nullable private Integer parallelism;
    private int maxOpenPartitions = SinkOptions.MAX_OPEN_PARTITIONS.defaultValue();
    @Nullable private OverwriteScope overwrite;
    private boolean boundedInput;
    private Function<String, String> uids = name -> null;

    private DovetailSink(TablePaths table, TableSchema schema, Map<String, String> writeOptions) {
        this.table = table;
        this.schema = schema;
        this.writeOptions = Map.copyOf(writeOptions);
    }

    /**
     * A sink appending rows of {@code schema} to the table at {@code table}; {@code writeOptions}
     * override the table's options for the files written (e.g. {@code target-file-size}).
     */
    public static DovetailSink forRows(
            TablePaths table, TableSchema schema, Map<String, String> writeOptions) {
        return new DovetailSink(table, schema, writeOptions);
    }

    /** Writer parallelism; null keeps the input's. */
    public DovetailSink parallelism(@Nullable Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    public DovetailSink maxOpenPartitions(int maxOpenPartitions) {
        this.maxOpenPartitions = maxOpenPartitions;
        return this;
    }

    /** Replaces what {@code scope} selects instead of appending (batch jobs only). */
    public DovetailSink overwrite(@Nullable OverwriteScope scope) {
        this.overwrite = scope;
        return this;
    }

    /** Whether the input ends (a bounded streaming job then commits its last data at the end). */
    public DovetailSink boundedInput(boolean bounded) {
        this.boundedInput = bounded;
        return this;
    }

    /** Stable operator uids by role (for savepoint compatibility); null for none. */
    public DovetailSink uids(Function<String, String> uids) {
        this.uids = uids;
        return this;
    }

    public DataStreamSink<?> build(DataStream<RowData> rows) {
        boolean atEnd =
                CommitTopology.commitsAtEndOfInput(
                        rows.getExecutionEnvironment(), boundedInput, table);
        if (overwrite != null && !CommitTopology.isBatch(rows.getExecutionEnvironment())) {
            throw Errors.unsupported(
                    "INSERT OVERWRITE in streaming mode", "Run the overwrite as a batch job");
        }
        SingleOutputStreamOperator<Committable> writers =
                CommitTopology.appendWriters(
                        rows, table, schema.id(), writeOptions, maxOpenPartitions);
        writers.setParallelism(parallelism != null ? parallelism : rows.getParallelism());
        CommitTopology.uid(writers, CommitTopology.WRITER, uids);
        return CommitTopology.commit(
                writers, table, "dovetail-" + UUID.randomUUID(), overwrite, atEnd, null, uids);
    }
}
