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
package io.dovetail.flink.maintenance;

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one committer of a compaction job (parallelism 1): collects the compacted file of every task
 * and, at the end of input, commits them all as one COMPACT snapshot through {@link
 * DataEvolutionCompaction#commit} (deletion vectors moved, row ids and sequence bounds kept), then
 * emits the job's result row ({@link CompactionJob#OUTPUT}).
 */
final class CompactionCommitter extends AbstractStreamOperator<Row>
        implements OneInputStreamOperator<Tuple3<Integer, Integer, byte[]>, Row>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final String commitUser;
    private final MaintenancePlanBytes plan;

    private transient byte[][] compacted;
    private transient Set<Integer> rewriters;

    CompactionCommitter(TablePaths table, String commitUser, MaintenancePlanBytes plan) {
        this.table = TableLoader.of(table);
        this.commitUser = commitUser;
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        compacted = new byte[plan.taskCount()][];
        rewriters = new HashSet<>();
    }

    @Override
    public void processElement(StreamRecord<Tuple3<Integer, Integer, byte[]>> element) {
        Tuple3<Integer, Integer, byte[]> result = element.getValue();
        compacted[result.f0] = result.f2;
        rewriters.add(result.f1);
    }

    @Override
    public void endInput() {
        List<ManifestEntry> files = new ArrayList<>();
        for (byte[] file : compacted) {
            if (file != null) {
                files.add(CompactionTaskCodec.entryFromBytes(file));
            }
        }
        TableStore store = table.open();
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(store)
                        .commit(
                                commitUser,
                                CompactionJob.COMMIT_IDENTIFIER,
                                plan.plan(DataEvolutionCompaction.Plan::new),
                                files);
        output.collect(new StreamRecord<>(CompactionJob.row(result, rewriters.size())));
    }
}
