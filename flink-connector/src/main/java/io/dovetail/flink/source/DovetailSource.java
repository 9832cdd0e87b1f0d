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
package io.dovetail.flink.source;

import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.SplitReader;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A bounded FLIP-27 source over one snapshot of a Dovetail table. The job graph carries the {@link
 * ReadSpec}; the enumerator plans the read on the JobManager (manifests are read once, there) and
 * hands out its splits, whole row-range groups, on request. A read planned where the query was
 * planned ({@link #planned}: an index lookup of one split) carries its splits instead and is not
 * planned again:
 *
 * <pre>
 *   JobManager                                      TaskManagers (parallelism n)
 *   StaticSplitEnumerator                           DovetailSourceReader 1..n
 *     ReadSpec.plan(n) -> [split 0 .. split k] <--- request split
 *     assign split i / no more splits          ---> SplitReader: stitched batches
 *                                                        | RowData (projected order,
 *                                                        v   _ROW_ID/_SEQUENCE_NUMBER last)
 *                                                   Calc (the full WHERE) -> downstream
 * </pre>
 *
 * <p>Checkpointed state: the enumerator's unassigned splits ({@link PendingSplits}) and each
 * reader's splits with the rows already emitted, both versioned.
 */
public final class DovetailSource implements Source<RowData, DovetailSplit, PendingSplits> {

    private static final long serialVersionUID = 1L;

    private final ReadSpec spec;
    @Nullable private final byte[] plannedSplits; // PendingSplitsSerializer bytes

    public DovetailSource(ReadSpec spec) {
        this(spec, null);
    }

    private DovetailSource(ReadSpec spec, @Nullable byte[] plannedSplits) {
        this.spec = spec;
        this.plannedSplits = plannedSplits;
    }

    /** The source of {@code spec} reading {@code plan}, its plan made already. */
    public static DovetailSource planned(ReadSpec spec, ReadPlan plan) {
        try {
            return new DovetailSource(
                    spec,
                    new PendingSplitsSerializer(spec.fields())
                            .serialize(new PendingSplits(splits(plan))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<RowData, DovetailSplit> createReader(SourceReaderContext context) {
        return new DovetailSourceReader(
                context, spec.fields(), spec.dereferenced(), SplitReader.DEFAULT_BATCH_SIZE);
    }

    @Override
    public SplitEnumerator<DovetailSplit, PendingSplits> createEnumerator(
            SplitEnumeratorContext<DovetailSplit> context) {
        if (plannedSplits != null) {
            try {
                return new StaticSplitEnumerator(
                        context,
                        new PendingSplitsSerializer(spec.fields())
                                .deserialize(PendingSplitsSerializer.VERSION, plannedSplits)
                                .splits());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new StaticSplitEnumerator(context, splits(spec.plan(context.currentParallelism())));
    }

    private static List<DovetailSplit> splits(ReadPlan plan) {
        List<DovetailSplit> splits = new ArrayList<>();
        for (int i = 0; i < plan.splits().size(); i++) {
            splits.add(new DovetailSplit(String.valueOf(i), plan.splits().get(i), 0));
        }
        return splits;
    }

    @Override
    public SplitEnumerator<DovetailSplit, PendingSplits> restoreEnumerator(
            SplitEnumeratorContext<DovetailSplit> context, PendingSplits state) {
        return new StaticSplitEnumerator(context, state.splits());
    }

    @Override
    public SimpleVersionedSerializer<DovetailSplit> getSplitSerializer() {
        return new DovetailSplitSerializer(spec.fields());
    }

    @Override
    public SimpleVersionedSerializer<PendingSplits> getEnumeratorCheckpointSerializer() {
        return new PendingSplitsSerializer(spec.fields());
    }
}
