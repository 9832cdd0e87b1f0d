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

import io.dovetail.table.TableStore;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.snapshot.Consumers;
import io.dovetail.table.types.DataField;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * An unbounded FLIP-27 source of a Dovetail table's changelog: optionally one snapshot in full as
 * {@code +I}, then the changes of every later snapshot as they are committed: in a full changelog
 * computed by comparing the touched row ranges before and after each snapshot, in an insert-only
 * one the rows each snapshot appended ({@link io.dovetail.table.read.ChangePlanner}, {@link
 * io.dovetail.table.read.ChangelogScope}):
 *
 * <pre>
 *   JobManager                                       TaskManagers (parallelism n)
 *   ChangelogSplitEnumerator                         ChangeSourceReader 1..n
 *     every discovery interval: latest snapshot id
 *     N handed out -> plan N + 1               <--- request split / split finished
 *     assign change split (N, before, after)   ---> ChangeRows: merge both sides by _ROW_ID
 *       to the reader that claims its rows             -> +I / -U +U / -D rows downstream
 *     on checkpoint complete: claims end, consumer file
 * </pre>
 *
 * <p>Rows are emitted in the read schema of {@code spec} (the table schema when the query was
 * planned): columns added later are not read, columns dropped later read NULL in later rows, and a
 * later type change is read as the read schema's type (as a time-travel read of an older snapshot
 * does). {@code _ROW_ID} is read for the comparison even when the query does not select it.
 */
public final class DovetailChangelogSource
        implements Source<RowData, ChangeSplit, ChangeEnumeratorState> {

    private static final long serialVersionUID = 1L;

    private final ReadSpec spec;
    private final ChangelogStart start;

    public DovetailChangelogSource(ReadSpec spec, ChangelogStart start) {
        this.spec = spec;
        this.start = start;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    /** The columns read: the output columns, then {@code _ROW_ID} unless it is one of them. */
    private List<DataField> readFields() {
        List<DataField> fields = new ArrayList<>(spec.fields());
        if (!fields.contains(SystemFields.ROW_ID)) {
            fields.add(SystemFields.ROW_ID);
        }
        return fields;
    }

    @Override
    public SourceReader<RowData, ChangeSplit> createReader(SourceReaderContext context) {
        List<DataField> fields = readFields();
        return new ChangeSourceReader(
                context,
                fields,
                fields.indexOf(SystemFields.ROW_ID),
                spec.fields().size(),
                spec.dereferenced(),
                SplitReader.DEFAULT_BATCH_SIZE);
    }

    @Override
    public SplitEnumerator<ChangeSplit, ChangeEnumeratorState> createEnumerator(
            SplitEnumeratorContext<ChangeSplit> context) {
        ChangeEnumeratorState initial =
                new ChangeEnumeratorState(
                        start.fullSnapshot(), start.firstChangeSnapshot(), List.of(), List.of());
        if (start.consumerId() != null) {
            OptionalLong next = new Consumers(spec.store().paths()).position(start.consumerId());
            if (next.isPresent()) {
                initial = new ChangeEnumeratorState(null, next.getAsLong(), List.of(), List.of());
            }
        }
        return restoreEnumerator(context, initial);
    }

    @Override
    public SplitEnumerator<ChangeSplit, ChangeEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<ChangeSplit> context, ChangeEnumeratorState state) {
        TableStore store = spec.store();
        ReadRequest request = spec.request(store).withFields(readFields());
        return new ChangelogSplitEnumerator(context, store, request, start, state);
    }

    @Override
    public SimpleVersionedSerializer<ChangeSplit> getSplitSerializer() {
        return new ChangeSplitSerializer(readFields());
    }

    @Override
    public SimpleVersionedSerializer<ChangeEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new ChangeEnumeratorStateSerializer(readFields());
    }
}
