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
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.GlobalIndexBuild;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;

/**
 * The one committer of an index build (parallelism 1): collects every written file and at the end
 * of input commits them in one snapshot ({@link GlobalIndexBuild#commit}), then emits the job's
 * result row ({@link GlobalIndexJob#OUTPUT}). A refused commit deletes the files.
 */
final class GlobalIndexCommitter extends AbstractStreamOperator<Row>
        implements OneInputStreamOperator<Row, Row>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final String commitUser;
    private final GlobalIndexBuild.Plan plan;

    private transient List<IndexManifestEntry> files;

    GlobalIndexCommitter(TablePaths table, String commitUser, GlobalIndexBuild.Plan plan) {
        this.table = TableLoader.of(table);
        this.commitUser = commitUser;
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        files = new ArrayList<>();
    }

    @Override
    public void processElement(StreamRecord<Row> element) {
        Row file = element.getValue();
        GlobalIndexBuild.Run run = plan.runs().get((Integer) file.getField(0));
        files.add(
                new IndexManifestEntry(
                        FileKind.ADD,
                        run.partition(),
                        0,
                        new IndexFileMeta(
                                plan.indexType(),
                                (String) file.getField(1),
                                (Long) file.getField(2),
                                (Long) file.getField(3),
                                null,
                                null,
                                new GlobalIndexMeta(
                                        run.first(),
                                        run.last(),
                                        plan.fieldId(),
                                        null,
                                        (byte[]) file.getField(4)))));
    }

    @Override
    public void endInput() {
        TableStore store = table.open();
        Snapshot snapshot;
        try {
            snapshot = GlobalIndexBuild.commit(store, commitUser, plan, files);
        } catch (RuntimeException e) {
            files.forEach(f -> FileIO.deleteQuietly(f.indexFile().path(store.paths().indexDir())));
            throw e;
        }
        long rows = files.stream().mapToLong(f -> f.indexFile().rowCount()).sum();
        output.collect(
                new StreamRecord<>(
                        Row.of(
                                (long) plan.runs().size(),
                                (long) files.size(),
                                rows,
                                snapshot.id())));
    }
}
