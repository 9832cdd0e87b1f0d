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

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A transactional test sink of row ids: a writer collects the ids of one checkpoint interval into a
 * {@link Batch}, and Flink's committer publishes the batch to {@link #COMMITTED} once that
 * checkpoint (or the final one, at end of input) completed. Batches of a failed attempt that no
 * checkpoint covered are never published. Flink replays committed batches after a restore, so the
 * commit is idempotent by batch id, as a real table commit is.
 */
final class CommittedRowIdsSink
        implements Sink<Long>, SupportsCommitter<CommittedRowIdsSink.Batch> {

    private static final long serialVersionUID = 1L;

    /** Published batches by id; static because the MiniCluster runs in the test's JVM. */
    static final Map<String, List<Long>> COMMITTED = new ConcurrentHashMap<>();

    /** Every published row id, duplicates included. */
    static List<Long> committedRowIds() {
        return COMMITTED.values().stream().flatMap(List::stream).toList();
    }

    /** The row ids one writer received in one checkpoint interval. */
    record Batch(String id, List<Long> rowIds) {}

    @Override
    public SinkWriter<Long> createWriter(WriterInitContext context) {
        return new BatchingWriter();
    }

    @Override
    public Committer<Batch> createCommitter(CommitterInitContext context) {
        return new PublishingCommitter();
    }

    @Override
    public SimpleVersionedSerializer<Batch> getCommittableSerializer() {
        return new BatchSerializer();
    }

    private static final class BatchingWriter implements CommittingSinkWriter<Long, Batch> {

        private List<Long> rowIds = new ArrayList<>();

        @Override
        public void write(Long rowId, Context context) {
            rowIds.add(rowId);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public Collection<Batch> prepareCommit() {
            Batch batch = new Batch(UUID.randomUUID().toString(), rowIds);
            rowIds = new ArrayList<>();
            return List.of(batch);
        }

        @Override
        public void close() {}
    }

    private static final class PublishingCommitter implements Committer<Batch> {

        @Override
        public void commit(Collection<CommitRequest<Batch>> requests) {
            for (CommitRequest<Batch> request : requests) {
                Batch batch = request.getCommittable();
                COMMITTED.putIfAbsent(batch.id(), batch.rowIds());
            }
        }

        @Override
        public void close() {}
    }

    private static final class BatchSerializer implements SimpleVersionedSerializer<Batch> {

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Batch batch) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(64 + 8 * batch.rowIds().size());
            out.writeUTF(batch.id());
            out.writeInt(batch.rowIds().size());
            for (long rowId : batch.rowIds()) {
                out.writeLong(rowId);
            }
            return out.getCopyOfBuffer();
        }

        @Override
        public Batch deserialize(int version, byte[] serialized) throws IOException {
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            String id = in.readUTF();
            List<Long> rowIds = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                rowIds.add(in.readLong());
            }
            return new Batch(id, rowIds);
        }
    }
}
