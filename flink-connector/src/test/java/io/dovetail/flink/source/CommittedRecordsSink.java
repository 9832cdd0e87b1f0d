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

import org.apache.flink.api.common.typeutils.TypeSerializer;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A transactional test sink: a writer collects the records of one checkpoint interval into a batch
 * with a fresh id, and the committer publishes the batch when its checkpoint completes (a replayed
 * batch once). Records emitted after the last completed checkpoint of a failed attempt are never
 * published, so what is published is what an exactly-once sink would hold, in publication order.
 */
final class CommittedRecordsSink<T>
        implements Sink<T>, SupportsCommitter<CommittedRecordsSink.Batch<T>> {

    private static final long serialVersionUID = 1L;

    /** Published batches in publication order; static: the MiniCluster runs in the test's JVM. */
    private static final Map<String, List<?>> PUBLISHED =
            Collections.synchronizedMap(new LinkedHashMap<>());

    private final TypeSerializer<T> serializer;

    CommittedRecordsSink(TypeSerializer<T> serializer) {
        this.serializer = serializer;
    }

    /** Every published record in publication order (batch by batch), duplicates included. */
    @SuppressWarnings("unchecked")
    static <T> List<T> published() {
        synchronized (PUBLISHED) {
            return PUBLISHED.values().stream().flatMap(b -> ((List<T>) b).stream()).toList();
        }
    }

    static void clear() {
        PUBLISHED.clear();
    }

    /** The records one writer received in one checkpoint interval. */
    record Batch<T>(String id, List<T> records) {}

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return new BatchingWriter<>();
    }

    @Override
    public Committer<Batch<T>> createCommitter(CommitterInitContext context) {
        return new PublishingCommitter<>();
    }

    @Override
    public SimpleVersionedSerializer<Batch<T>> getCommittableSerializer() {
        return new BatchSerializer<>(serializer.duplicate());
    }

    private static final class BatchingWriter<T> implements CommittingSinkWriter<T, Batch<T>> {

        private List<T> records = new ArrayList<>();

        @Override
        public void write(T record, Context context) {
            records.add(record);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public Collection<Batch<T>> prepareCommit() {
            Batch<T> batch = new Batch<>(UUID.randomUUID().toString(), records);
            records = new ArrayList<>();
            return List.of(batch);
        }

        @Override
        public void close() {}
    }

    private static final class PublishingCommitter<T> implements Committer<Batch<T>> {

        @Override
        public void commit(Collection<CommitRequest<Batch<T>>> requests) {
            for (CommitRequest<Batch<T>> request : requests) {
                Batch<T> batch = request.getCommittable();
                PUBLISHED.putIfAbsent(batch.id(), batch.records());
            }
        }

        @Override
        public void close() {}
    }

    private static final class BatchSerializer<T> implements SimpleVersionedSerializer<Batch<T>> {

        private final TypeSerializer<T> serializer;

        BatchSerializer(TypeSerializer<T> serializer) {
            this.serializer = serializer;
        }

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Batch<T> batch) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(64 + 8 * batch.records().size());
            out.writeUTF(batch.id());
            out.writeInt(batch.records().size());
            for (T record : batch.records()) {
                serializer.serialize(record, out);
            }
            return out.getCopyOfBuffer();
        }

        @Override
        public Batch<T> deserialize(int version, byte[] serialized) throws IOException {
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            String id = in.readUTF();
            List<T> records = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                records.add(serializer.deserialize(in));
            }
            return new Batch<>(id, records);
        }
    }
}
