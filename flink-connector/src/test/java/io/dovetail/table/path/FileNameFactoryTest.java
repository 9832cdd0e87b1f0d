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

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileNameFactoryTest {

    private static final UUID ID = UUID.fromString("a86ed2d5-4107-437e-a889-922ca64881b1");

    @Test
    void namesFollowPaimonPatterns() {
        FileNameFactory names = new FileNameFactory(ID);
        assertThat(names.newDataFileName("PARQUET"))
                .isEqualTo("data-a86ed2d5-4107-437e-a889-922ca64881b1-0.parquet");
        assertThat(names.newManifestFileName())
                .isEqualTo("manifest-a86ed2d5-4107-437e-a889-922ca64881b1-1");
        assertThat(names.newManifestListName())
                .isEqualTo("manifest-list-a86ed2d5-4107-437e-a889-922ca64881b1-2");
        assertThat(names.newIndexManifestName())
                .isEqualTo("index-manifest-a86ed2d5-4107-437e-a889-922ca64881b1-3");
        assertThat(names.newIndexFileName())
                .isEqualTo("index-a86ed2d5-4107-437e-a889-922ca64881b1-4");
    }

    @Test
    void everyNameIsUniqueAcrossThreadsAndFactories() {
        FileNameFactory shared = new FileNameFactory();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 4000)
                .parallel()
                .forEach(i -> assertThat(seen.add(shared.newDataFileName("orc"))).isTrue());
        assertThat(seen).hasSize(4000);
        assertThat(new FileNameFactory().newManifestFileName())
                .isNotEqualTo(new FileNameFactory().newManifestFileName())
                .matches("manifest-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-0");
    }

    @Test
    void refusesFormatsThatAreNotAPlainExtension() {
        FileNameFactory names = new FileNameFactory(ID);
        assertThatThrownBy(() -> names.newDataFileName("")).hasMessageContaining("format ''");
        assertThatThrownBy(() -> names.newDataFileName("par/quet"))
                .hasMessageContaining("'par/quet'");
        assertThatThrownBy(() -> names.newDataFileName(null)).hasMessageContaining("'null'");
    }
}
