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
package io.dovetail.table.index;

import io.dovetail.table.error.DovetailException;

import org.apache.flink.core.fs.Path;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeletionVectorTest {

    private static java.nio.file.Path tempDir;

    @BeforeContainer
    static void createTempDir() throws IOException {
        tempDir = Files.createTempDirectory("dovetail-dv-props");
    }

    @AfterContainer
    static void deleteTempDir() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(tempDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void addContainsCardinalityMerge() {
        DeletionVector a = DeletionVector.of(1, 3);
        DeletionVector b = DeletionVector.of(3, 1L << 30);

        a.merge(b);

        assertThat(a.cardinality()).isEqualTo(3);
        assertThat(a.contains(1 << 30)).isTrue();
        assertThat(a.contains(2)).isFalse();
        assertThat(a.contains(-1)).isFalse();
        assertThat(a.contains(1L << 32)).isFalse();
        assertThat(b.cardinality()).isEqualTo(2);
        assertThat(new DeletionVector().isEmpty()).isTrue();
    }

    @Test
    void positionsBeyondThirtyTwoBitsAreRejected() {
        DeletionVector vector = new DeletionVector();

        assertThatThrownBy(() -> vector.add(1L << 31))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("2147483648");
        assertThatThrownBy(() -> vector.add(-1)).isInstanceOf(DovetailException.class);
    }

    @Test
    void garbledBitmapIsCorrupt() {
        byte[] payload = DeletionVector.of(1, 2, 3).serialize();
        payload[5] = 0x77; // cookie

        assertThatThrownBy(() -> DeletionVector.deserialize(payload, "index-x"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("index-x");
        assertThatThrownBy(() -> DeletionVector.deserialize(new byte[3], "index-x"))
                .hasMessageContaining("3 bytes");
    }

    @Property(tries = 100)
    void vectorsRoundTripThroughIndexFiles(
            @ForAll("vectorMaps") Map<String, DeletionVector> vectors,
            @ForAll @IntRange(min = 1, max = 4000) int targetSize) {
        Path dir = new Path(tempDir.toUri());

        List<IndexFileMeta> metas = new DeletionVectorIndexFile(dir, targetSize).write(vectors);

        Map<String, DeletionVector> readBack = new LinkedHashMap<>();
        for (IndexFileMeta meta : metas) {
            assertThat(meta.fileSize())
                    .isEqualTo(tempDir.resolve(meta.fileName()).toFile().length());
            assertThat(meta.rowCount()).isEqualTo(meta.deletionVectors().size());
            for (DeletionVectorMeta range : meta.deletionVectors()) {
                DeletionVector vector = DeletionVectorIndexFile.read(meta.path(dir), range);
                assertThat(vector).isEqualTo(vectors.get(range.dataFileName()));
                assertThat(range.cardinality()).isEqualTo(vector.cardinality());
            }
            readBack.putAll(DeletionVectorIndexFile.readAll(dir, meta));
        }
        assertThat(readBack).containsExactlyEntriesOf(vectors);
    }

    @Provide
    Arbitrary<Map<String, DeletionVector>> vectorMaps() {
        Arbitrary<DeletionVector> vectors =
                Arbitraries.oneOf(
                                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                                Arbitraries.integers().between(0, 200_000))
                        .set()
                        .ofMaxSize(300)
                        .map(DeletionVectorTest::vectorOf);
        return Arbitraries.maps(
                        Arbitraries.strings()
                                .alpha()
                                .ofMinLength(1)
                                .ofMaxLength(8)
                                .map(s -> "data-" + s),
                        vectors)
                .ofMaxSize(6)
                .map(LinkedHashMap::new);
    }

    private static DeletionVector vectorOf(Set<Integer> positions) {
        DeletionVector vector = new DeletionVector();
        positions.forEach(vector::add);
        return vector;
    }
}
