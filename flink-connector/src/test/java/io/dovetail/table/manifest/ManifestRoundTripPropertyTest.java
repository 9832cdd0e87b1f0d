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
import io.dovetail.table.stats.StatsCollector;

import org.apache.flink.core.fs.Path;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Random entries and manifest metas round-trip through real Avro files. */
class ManifestRoundTripPropertyTest {

    private static java.nio.file.Path tempDir;

    @BeforeContainer
    static void createTempDir() throws IOException {
        tempDir = Files.createTempDirectory("dovetail-manifest-props");
    }

    @AfterContainer
    static void deleteTempDir() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(tempDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 60)
    void entriesRoundTripWithExactMetas(
            @ForAll("entryLists") List<ManifestEntry> entries,
            @ForAll("codecs") AvroCodec codec,
            @ForAll @IntRange(min = 256, max = 20_000) int targetSize) {
        Path dir = new Path(tempDir.toUri());
        ManifestFileWriter writer =
                new ManifestFileWriter(dir, RandomManifests.PARTITION_TYPES, codec, targetSize);

        List<ManifestFileMeta> metas = writer.write(entries);

        List<ManifestEntry> readBack = new ArrayList<>();
        int start = 0;
        for (ManifestFileMeta meta : metas) {
            List<ManifestEntry> inFile = ManifestFileReader.read(dir, meta);
            List<ManifestEntry> expected = entries.subList(start, start + inFile.size());
            assertThat(meta.fileName()).matches("manifest-[0-9a-f-]{36}-\\d+");
            assertThat(meta.fileSize())
                    .isEqualTo(tempDir.resolve(meta.fileName()).toFile().length());
            assertThat(meta).isEqualTo(expectedMeta(meta.fileName(), meta.fileSize(), expected));
            readBack.addAll(inFile);
            start += inFile.size();
        }
        assertThat(readBack).isEqualTo(entries);
        if (entries.isEmpty()) {
            assertThat(metas).isEmpty();
        }
    }

    @Property(tries = 60)
    void manifestListsRoundTrip(
            @ForAll("metaLists") List<ManifestFileMeta> metas, @ForAll("codecs") AvroCodec codec) {
        Path dir = new Path(tempDir.toUri());

        WrittenFile list = new ManifestListWriter(dir, codec).write(metas);

        assertThat(list.fileName()).matches("manifest-list-[0-9a-f-]{36}-\\d+");
        assertThat(list.fileSize()).isEqualTo(tempDir.resolve(list.fileName()).toFile().length());
        assertThat(ManifestListReader.read(new Path(dir, list.fileName()), list.fileSize()))
                .isEqualTo(metas);
        assertThat(ManifestListReader.read(new Path(dir, list.fileName()), null)).isEqualTo(metas);
    }

    /** The meta computed independently from the entries, following section 4.2. */
    private static ManifestFileMeta expectedMeta(
            String name, long size, List<ManifestEntry> entries) {
        StatsCollector partitions = new StatsCollector(RandomManifests.PARTITION_TYPES);
        BinaryRowCodec codec = BinaryRowCodec.of(RandomManifests.PARTITION_TYPES);
        entries.forEach(e -> partitions.add(codec.deserialize(e.partition())));
        boolean allRowIds = entries.stream().allMatch(e -> e.file().firstRowId() != null);
        return new ManifestFileMeta(
                name,
                size,
                entries.stream().filter(e -> e.kind() == FileKind.ADD).count(),
                entries.stream().filter(e -> e.kind() == FileKind.DELETE).count(),
                partitions.toSimpleStats(),
                entries.stream().mapToLong(e -> e.file().schemaId()).max().getAsLong(),
                entries.stream().mapToInt(ManifestEntry::bucket).min().getAsInt(),
                entries.stream().mapToInt(ManifestEntry::bucket).max().getAsInt(),
                entries.stream().mapToInt(e -> e.file().level()).min().getAsInt(),
                entries.stream().mapToInt(e -> e.file().level()).max().getAsInt(),
                allRowIds
                        ? entries.stream().mapToLong(e -> e.file().firstRowId()).min().getAsLong()
                        : null,
                allRowIds
                        ? entries.stream()
                                .mapToLong(e -> e.file().firstRowId() + e.file().rowCount() - 1)
                                .max()
                                .getAsLong()
                        : null);
    }

    @Provide
    Arbitrary<List<ManifestEntry>> entryLists() {
        return RandomManifests.entries().list().ofMaxSize(40);
    }

    @Provide
    Arbitrary<List<ManifestFileMeta>> metaLists() {
        return RandomManifests.manifestFileMetas().list().ofMaxSize(10);
    }

    @Provide
    Arbitrary<AvroCodec> codecs() {
        return Arbitraries.of(AvroCodec.NULL, AvroCodec.DEFLATE, AvroCodec.ZSTANDARD);
    }
}
