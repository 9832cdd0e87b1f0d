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
package io.dovetail.table.snapshot;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.arbitraries.StringArbitrary;

import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotJsonPropertyTest {

    @Property(tries = 1000)
    void everySnapshotRoundTripsAndReserializesIdentically(@ForAll("snapshots") Snapshot s) {
        byte[] bytes = SnapshotJson.toBytes(s);

        Snapshot read = SnapshotJson.fromBytes(bytes, "snapshot-" + s.id());

        assertThat(read).isEqualTo(s);
        assertThat(SnapshotJson.toBytes(read)).isEqualTo(bytes);
    }

    @Provide
    Arbitrary<Snapshot> snapshots() {
        Arbitrary<Long> anyLong = Arbitraries.longs();
        Arbitrary<Long> natural = Arbitraries.longs().greaterOrEqual(0);
        Arbitrary<String> text = unicode().ofMinLength(1).ofMaxLength(40);
        return Builders.withBuilder(Snapshot::builder)
                .use(Arbitraries.longs().greaterOrEqual(1))
                .in(Snapshot.Builder::id)
                .use(natural)
                .in(Snapshot.Builder::schemaId)
                .use(text)
                .in(Snapshot.Builder::baseManifestList)
                .use(natural)
                .withProbability(0.5)
                .in(Snapshot.Builder::baseManifestListSize)
                .use(text)
                .in(Snapshot.Builder::deltaManifestList)
                .use(natural)
                .withProbability(0.5)
                .in(Snapshot.Builder::deltaManifestListSize)
                .use(text)
                .withProbability(0.5)
                .in(Snapshot.Builder::changelogManifestList)
                .use(natural)
                .withProbability(0.5)
                .in(Snapshot.Builder::changelogManifestListSize)
                .use(text)
                .withProbability(0.5)
                .in(Snapshot.Builder::indexManifest)
                .use(text)
                .in(Snapshot.Builder::commitUser)
                .use(anyLong)
                .in(Snapshot.Builder::commitIdentifier)
                .use(Arbitraries.of(CommitKind.class))
                .in(Snapshot.Builder::commitKind)
                .use(anyLong)
                .in(Snapshot.Builder::timeMillis)
                .use(anyLong)
                .in(Snapshot.Builder::totalRecordCount)
                .use(anyLong)
                .in(Snapshot.Builder::deltaRecordCount)
                .use(anyLong)
                .withProbability(0.5)
                .in(Snapshot.Builder::changelogRecordCount)
                .use(anyLong)
                .withProbability(0.5)
                .in(Snapshot.Builder::watermark)
                .use(text)
                .withProbability(0.5)
                .in(Snapshot.Builder::statistics)
                .use(
                        Arbitraries.maps(text, unicode().ofMaxLength(20))
                                .ofMaxSize(4)
                                .map(LinkedHashMap::new))
                .withProbability(0.5)
                .in(Snapshot.Builder::properties)
                .use(natural)
                .withProbability(0.8)
                .in(Snapshot.Builder::nextRowId)
                .build(Snapshot.Builder::build);
    }

    /** Any text that is valid Unicode (no unpaired surrogates), including controls and quotes. */
    private static StringArbitrary unicode() {
        return Arbitraries.strings()
                .withCharRange('\u0000', '\uD7FF')
                .withCharRange('\uE000', '\uFFFD');
    }
}
