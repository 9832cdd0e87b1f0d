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
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.GlobalIndexBuild;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;

/**
 * Writes the index files of the runs routed to it from their sorted rows ({@link
 * GlobalIndexBuild.Files}); at the end of input emits one row per file written: {@code (run, file
 * name, file size, row count, index meta)}. A failed writer deletes its unfinished file.
 */
final class GlobalIndexFileWriter extends AbstractStreamOperator<Row>
        implements OneInputStreamOperator<IndexedRow, Row>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final GlobalIndexBuild.Plan plan;

    private transient GlobalIndexBuild.Files files;
    private transient BTreeKeys keys;

    GlobalIndexFileWriter(TablePaths table, GlobalIndexBuild.Plan plan) {
        this.table = TableLoader.of(table);
        this.plan = plan;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TableStore store = table.open();
        files = new GlobalIndexBuild.Files(store, plan);
        keys = GlobalIndexBuild.keys(store, plan);
    }

    @Override
    public void processElement(StreamRecord<IndexedRow> element) {
        IndexedRow row = element.getValue();
        files.add(plan.runs().get(row.run()), row.key(keys), row.rowId());
    }

    @Override
    public void endInput() {
        for (IndexManifestEntry entry : files.finish()) {
            int run = runOf(entry);
            output.collect(
                    new StreamRecord<>(
                            Row.of(
                                    run,
                                    entry.indexFile().fileName(),
                                    entry.indexFile().fileSize(),
                                    entry.indexFile().rowCount(),
                                    entry.indexFile().globalIndex().indexMeta())));
        }
    }

    @Override
    public void close() throws Exception {
        if (files != null) {
            files.abort();
        }
        super.close();
    }

    private int runOf(IndexManifestEntry entry) {
        long first = entry.indexFile().globalIndex().rowRangeStart();
        for (int i = 0; i < plan.runs().size(); i++) {
            GlobalIndexBuild.Run run = plan.runs().get(i);
            if (run.first() == first
                    && java.util.Arrays.equals(run.partition(), entry.partition())) {
                return i;
            }
        }
        throw new IllegalStateException("no run starts at " + first);
    }
}
