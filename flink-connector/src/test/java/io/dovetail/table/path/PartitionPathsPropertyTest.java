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
package io.dovetail.table.path;

import org.apache.flink.core.fs.Path;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionPathsPropertyTest {

    private static final TablePaths TABLE = new TablePaths(new Path("file:/warehouse/db.db/t"));

    @Property(tries = 2000)
    void anyKeyAndValueEscapeToOneSegmentThatRoundTrips(
            @ForAll("names") String key, @ForAll("names") String value) {
        Map<String, String> spec = Map.of(key, value);

        String segment = PartitionPaths.path(spec);

        assertThat(segment).doesNotContain("/").isNotEqualTo(".").isNotEqualTo("..");
        assertThat(segment.chars()).noneMatch(c -> c < 0x20 || c == 0x7F || c == '\\');
        assertThat(PartitionPaths.parse(segment)).isEqualTo(spec);
        Path bucket = TABLE.bucketDir(segment, 0);
        assertThat(bucket.getParent().getName()).isEqualTo(segment);
        assertThat(bucket.getParent().getParent()).isEqualTo(TABLE.root());
        assertThat(new Path(bucket, "data-1.parquet").getParent()).isEqualTo(bucket);
    }

    @Property(tries = 500)
    void multiLevelPathsRoundTripInOrder(@ForAll("specs") LinkedHashMap<String, String> spec) {
        String path = PartitionPaths.path(spec);

        assertThat(path.split("/", -1)).hasSize(spec.size());
        assertThat(List.copyOf(PartitionPaths.parse(path).entrySet()))
                .containsExactlyElementsOf(spec.entrySet());
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings()
                .ascii()
                .withChars("éß中文€\u00A0\u2028")
                .ofMinLength(1)
                .ofMaxLength(24);
    }

    @Provide
    Arbitrary<LinkedHashMap<String, String>> specs() {
        return Arbitraries.maps(names(), names()).ofMinSize(1).ofMaxSize(4).map(LinkedHashMap::new);
    }
}
