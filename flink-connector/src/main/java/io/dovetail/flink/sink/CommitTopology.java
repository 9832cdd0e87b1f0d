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

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.Map;
import java.util.function.Function;

/**
 * The commit tail every committing job ends with, built here only, so every write commits through
 * the same committer operator:
 *
 * <pre>
 *   [writers × p] ──committables, global──▶ [committer × 1] ──▶ [end × 1]
 *                                            one snapshot per checkpoint,
 *                                            or one at the end of input
 * </pre>
 *
 * Operators get their uids from the job's {@code uids} function by role ({@link #WRITER}, {@link
 * #COMMITTER}, {@link #END}); a null uid leaves Flink's generated one.
 */
public final class CommitTopology {

    public static final String WRITER = "writer";
    public static final String COMMITTER = "committer";
    public static final String END = "end";

    private CommitTopology() {}

    /**
     * Whether a job on {@code env} commits at the end of its input (batch, or a bounded job without
     * checkpointing) rather than when checkpoints complete; refuses an unbounded streaming job
     * without checkpointing, which would never commit.
     */
    public static boolean commitsAtEndOfInput(
            StreamExecutionEnvironment env, boolean boundedInput, TablePaths table) {
        boolean checkpointing = env.getCheckpointConfig().isCheckpointingEnabled();
        if (!isBatch(env) && !checkpointing && !boundedInput) {
            throw Errors.invalidArgument(
                    "A streaming write to the Dovetail table at "
                            + table.root()
                            + " commits when checkpoints complete, but checkpointing is off;"
                            + " set 'execution.checkpointing.interval' (e.g. '10 s').");
        }
        return isBatch(env) || !checkpointing;
    }

    public static boolean isBatch(StreamExecutionEnvironment env) {
        return env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                == RuntimeExecutionMode.BATCH;
    }

    /** The type of the stream of committables the writers send to the committer. */
    public static TypeInformation<Committable> committables() {
        return new CommittableTypeInfo();
    }

    /**
     * Sends {@code committables} to the one committer of {@code table}.
     *
     * @param commitUser the job's commit user (the committer keeps it in its state)
     * @param overwrite what the commit replaces; null appends
     * @param commitAtEndOfInput commit at the end of input (batch, or bounded input without
     *     checkpoints) rather than on checkpoint completion
     * @param pin the consumer id of the job's pin of its base snapshot, released after the commit
     *     at the end of input; null for none
     */
    public static DataStreamSink<Void> commit(
            DataStream<Committable> committables,
            TablePaths table,
            String commitUser,
            @Nullable OverwriteScope overwrite,
            boolean commitAtEndOfInput,
            @Nullable String pin,
            Function<String, String> uids) {
        SingleOutputStreamOperator<Void> committed =
                committables
                        .global()
                        .transform(
                                "Dovetail committer: " + table.root().getName(),
                                Types.VOID,
                                new CommitterOperator(
                                        table, commitUser, overwrite, commitAtEndOfInput, pin))
                        .setParallelism(1)
                        .setMaxParallelism(1);
        uid(committed, COMMITTER, uids);
        DataStreamSink<Void> end =
                committed.sinkTo(new DiscardingSink<>()).name(END).setParallelism(1);
        String endUid = uids.apply(END);
        if (endUid != null) {
            end.uid(endUid);
        }
        return end;
    }

    /** The append writers of {@code table}: new rows of schema {@code schemaId} to new files. */
    public static SingleOutputStreamOperator<Committable> appendWriters(
            DataStream<RowData> rows,
            TablePaths table,
            long schemaId,
            Map<String, String> writeOptions,
            int maxOpenPartitions) {
        return rows.transform(
                "Dovetail writer: " + table.root().getName(),
                committables(),
                new AppendWriterOperator(table, schemaId, writeOptions, maxOpenPartitions));
    }

    /** Sets {@code operator}'s uid for {@code role}, if the job gives one. */
    public static void uid(
            SingleOutputStreamOperator<?> operator, String role, Function<String, String> uids) {
        String uid = uids.apply(role);
        if (uid != null) {
            operator.uid(uid);
        }
    }
}
