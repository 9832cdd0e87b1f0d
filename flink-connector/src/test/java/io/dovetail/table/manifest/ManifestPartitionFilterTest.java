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
package io.dovetail.table.manifest;

import io.dovetail.table.data.BinaryRowCodec;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ManifestPartitionFilterTest {

    private static final BinaryRowCodec CODEC = BinaryRowCodec.of(RandomManifests.PARTITION_TYPES);

    /** Never optimistic: a manifest holding an entry of a wanted partition is always read. */
    @Property(tries = 300)
    void aManifestHoldingAWantedPartitionIsNeverSkipped(
            @ForAll("partitionLists") List<byte[]> partitions, @ForAll("partitions") byte[] other) {
        ManifestFileMeta manifest = manifestOf(partitions);
        for (byte[] partition : partitions) {
            assertThat(filter(partition, other).mayHold(manifest)).isTrue();
        }
    }

    @Test
    void aManifestIsSkippedWhenEveryWantedPartitionLiesOutsideItsBounds() {
        ManifestFileMeta manifest = manifestOf(List.of(partition("b", 1), partition("d", 3)));

        assertThat(filter(partition("c", 2)).mayHold(manifest)).isTrue();
        assertThat(filter(partition("a", 2)).mayHold(manifest)).isFalse();
        assertThat(filter(partition("c", 4)).mayHold(manifest)).isFalse();
        assertThat(filter(partition("c", null)).mayHold(manifest))
                .as("no entry has a null dpart")
                .isFalse();
        assertThat(filter(partition("a", 2), partition("c", 2)).mayHold(manifest)).isTrue();
        assertThat(filter().mayHold(manifest)).as("no partition wanted").isFalse();
    }

    @Test
    void aNullPartitionValueMatchesOnlyManifestsWithNulls() {
        ManifestFileMeta withNull = manifestOf(List.of(partition("b", null)));

        assertThat(filter(partition("b", null)).mayHold(withNull)).isTrue();
        assertThat(filter(partition("b", 1)).mayHold(withNull))
                .as("dpart is null in every entry")
                .isFalse();
    }

    @Provide
    Arbitrary<List<byte[]>> partitionLists() {
        return RandomManifests.partitions().list().ofMinSize(1).ofMaxSize(8);
    }

    @Provide
    Arbitrary<byte[]> partitions() {
        return RandomManifests.partitions();
    }

    private static ManifestFileMeta manifestOf(List<byte[]> partitions) {
        ManifestFileMetaCollector collector =
                new ManifestFileMetaCollector(RandomManifests.PARTITION_TYPES);
        int n = 0;
        for (byte[] partition : partitions) {
            collector.add(
                    new ManifestEntry(
                            FileKind.ADD,
                            partition,
                            0,
                            -1,
                            DataFileMeta.builder("data-" + n++ + ".parquet")
                                    .fileSize(1)
                                    .rowCount(1)
                                    .build()));
        }
        return collector.finish("manifest-test", 1);
    }

    private static ManifestPartitionFilter filter(byte[]... partitions) {
        return new ManifestPartitionFilter(
                RandomManifests.PARTITION_TYPES,
                Arrays.stream(partitions).map(ByteBuffer::wrap).collect(Collectors.toSet()));
    }

    private static byte[] partition(String part, Integer dpart) {
        return CODEC.serialize(GenericRowData.of(StringData.fromString(part), dpart));
    }
}
