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

import io.dovetail.table.error.DovetailException;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dovetail.table.manifest.ManifestFilesTest.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LiveFileSetTest {

    private final ManifestEntry a = entry(FileKind.ADD, "p", 1, "data-a", 0L);
    private final ManifestEntry b = entry(FileKind.ADD, "p", 1, "data-b", 5L);
    private final ManifestEntry c = entry(FileKind.ADD, "q", 1, "data-c", 10L);
    private final ManifestEntry d = entry(FileKind.ADD, "p", 1, "data-d", 15L);

    @Test
    void readRuleKeepsAddsWhoseIdentityIsNeverDeleted() {
        List<ManifestEntry> base = List.of(a, b, c);
        List<ManifestEntry> delta = List.of(delete(b), d);

        assertThat(LiveFileSet.merge(concat(base, delta))).containsExactly(a, c, d);
    }

    @Test
    void identityUsesPartitionBytesLevelAndExtraFiles() {
        ManifestEntry samePathOtherPartition = entry(FileKind.DELETE, "q", 1, "data-a", 0L);
        ManifestEntry otherLevel = withFile(delete(b), b.file().toBuilder().level(1).build());
        ManifestEntry otherExtraFiles =
                withFile(delete(c), c.file().toBuilder().extraFiles(List.of("x.index")).build());
        ManifestEntry deleteWithOtherStats =
                withFile(delete(d), d.file().toBuilder().rowCount(99).schemaId(9).build());

        assertThat(
                        LiveFileSet.merge(
                                List.of(
                                        a,
                                        b,
                                        c,
                                        d,
                                        samePathOtherPartition,
                                        otherLevel,
                                        otherExtraFiles,
                                        deleteWithOtherStats)))
                .containsExactly(a, b, c);
    }

    @Test
    void readRuleRejectsAFileAddedTwice() {
        assertThatThrownBy(() -> LiveFileSet.merge(List.of(a, b, a)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-a")
                .hasMessageContaining("added twice");
    }

    @Test
    void commitSideAppliesStrictly() {
        LiveFileSet live = new LiveFileSet();
        live.applyAll(List.of(a, b, c, delete(b), d));

        assertThat(live.liveEntries()).containsExactly(a, c, d);
        assertThat(live.contains(a.identity())).isTrue();
        assertThat(live.contains(b.identity())).isFalse();
        assertThat(live.size()).isEqualTo(3);

        assertThatThrownBy(() -> live.apply(a))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-a")
                .hasMessageContaining("already live")
                .satisfies(e -> kind(e, DovetailException.Kind.INVALID_LAYOUT));
        assertThatThrownBy(() -> live.apply(delete(b)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("data-b")
                .hasMessageContaining("not live")
                .satisfies(e -> kind(e, DovetailException.Kind.CONFLICT));

        live.apply(b);
        assertThat(live.liveEntries()).containsExactly(a, c, d, b);
    }

    private static void kind(Throwable e, DovetailException.Kind kind) {
        assertThat(((DovetailException) e).kind()).isEqualTo(kind);
    }

    private static ManifestEntry delete(ManifestEntry add) {
        return new ManifestEntry(
                FileKind.DELETE, add.partition(), add.bucket(), add.totalBuckets(), add.file());
    }

    private static ManifestEntry withFile(ManifestEntry entry, DataFileMeta file) {
        return new ManifestEntry(
                entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), file);
    }

    private static List<ManifestEntry> concat(List<ManifestEntry> x, List<ManifestEntry> y) {
        return java.util.stream.Stream.concat(x.stream(), y.stream()).toList();
    }
}
