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
import io.dovetail.table.data.RandomRows;
import io.dovetail.table.data.RandomRows.TypedRow;
import io.dovetail.table.stats.SimpleStats;
import io.dovetail.table.stats.StatsCollector;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.VarCharType;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;

import java.util.List;

/** jqwik generators of data file metas, manifest entries and manifest file metas. */
final class RandomManifests {

    /** Partition columns used by the generated entries: (part STRING, dpart INT). */
    static final List<LogicalType> PARTITION_TYPES =
            List.of(VarCharType.STRING_TYPE, new IntType());

    private RandomManifests() {}

    static Arbitrary<byte[]> partitions() {
        BinaryRowCodec codec = BinaryRowCodec.of(PARTITION_TYPES);
        Arbitrary<StringData> part =
                Arbitraries.of("a", "b", "a/b=c", "long partition value")
                        .map(StringData::fromString)
                        .injectNull(0.1);
        Arbitrary<Integer> dpart = Arbitraries.integers().between(-2, 3).injectNull(0.1);
        return Combinators.combine(part, dpart)
                .as((p, d) -> codec.serialize(GenericRowData.of(p, d)));
    }

    static Arbitrary<SimpleStats> stats() {
        Arbitrary<SimpleStats> collected =
                RandomRows.rowLists(5, 4)
                        .map(
                                rows -> {
                                    StatsCollector collector =
                                            new StatsCollector(rows.get(0).types());
                                    for (TypedRow row : rows) {
                                        collector.add(row.row());
                                    }
                                    return collector.toSimpleStats();
                                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(SimpleStats.EMPTY)),
                net.jqwik.api.Tuple.of(3, collected));
    }

    static Arbitrary<List<String>> names() {
        return Arbitraries.strings()
                .alpha()
                .numeric()
                .withChars('_', '.')
                .ofMinLength(1)
                .ofMaxLength(12)
                .list()
                .ofMaxSize(4);
    }

    static Arbitrary<DataFileMeta> dataFiles() {
        Arbitrary<String> fileNames =
                Arbitraries.strings()
                        .withCharRange('a', 'f')
                        .numeric()
                        .ofLength(12)
                        .map(s -> "data-" + s + "-0.parquet");
        Arbitrary<Long> rowCounts = Arbitraries.longs().between(100, 1L << 40);
        return Builders.withBuilder(() -> DataFileMeta.builder("placeholder"))
                .use(fileNames)
                .in(DataFileMeta.Builder::fileName)
                .use(Arbitraries.longs().between(0, 1L << 40))
                .in(DataFileMeta.Builder::fileSize)
                .use(rowCounts)
                .in(DataFileMeta.Builder::rowCount)
                .use(keyRows())
                .in(DataFileMeta.Builder::minKey)
                .use(keyRows())
                .in(DataFileMeta.Builder::maxKey)
                .use(stats())
                .in(DataFileMeta.Builder::keyStats)
                .use(stats())
                .in(DataFileMeta.Builder::valueStats)
                .use(Combinators.combine(Arbitraries.longs(), Arbitraries.longs()).as(Seq::new))
                .in((b, seq) -> b.sequenceNumbers(seq.min, seq.max))
                .use(Arbitraries.longs().between(0, 50))
                .in(DataFileMeta.Builder::schemaId)
                .use(Arbitraries.integers().between(0, 5))
                .in(DataFileMeta.Builder::level)
                .use(names())
                .in(DataFileMeta.Builder::extraFiles)
                .use(Arbitraries.longs().injectNull(0.2))
                .in(DataFileMeta.Builder::creationTime)
                .use(Arbitraries.longs().between(0, 100).injectNull(0.2))
                .in(DataFileMeta.Builder::deleteRowCount)
                .use(Arbitraries.bytes().array(byte[].class).ofMaxSize(10).injectNull(0.7))
                .in(DataFileMeta.Builder::embeddedFileIndex)
                .use(Arbitraries.of(FileSource.class).injectNull(0.2))
                .in(DataFileMeta.Builder::fileSource)
                .use(names().injectNull(0.5))
                .in(DataFileMeta.Builder::valueStatsCols)
                .use(
                        Arbitraries.strings()
                                .alpha()
                                .ofMinLength(1)
                                .map(s -> "s3://x/" + s)
                                .injectNull(0.8))
                .in(DataFileMeta.Builder::externalPath)
                .use(Arbitraries.longs().between(0, 1L << 50).injectNull(0.2))
                .in(DataFileMeta.Builder::firstRowId)
                .use(names().injectNull(0.5))
                .in(DataFileMeta.Builder::writeCols)
                .build(DataFileMeta.Builder::build);
    }

    static Arbitrary<ManifestEntry> entries() {
        return Combinators.combine(
                        Arbitraries.of(FileKind.class),
                        partitions(),
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.of(-1, 1, 4),
                        dataFiles())
                .as(ManifestEntry::new);
    }

    static Arbitrary<ManifestFileMeta> manifestFileMetas() {
        Arbitrary<Integer> smallInts = Arbitraries.integers().between(-1, 10).injectNull(0.2);
        Arbitrary<Long> rowIds = Arbitraries.longs().between(0, 1L << 50).injectNull(0.3);
        Arbitrary<String> fileNames =
                Arbitraries.strings().withCharRange('a', 'f').ofLength(8).map(s -> "manifest-" + s);
        Arbitrary<long[]> counts =
                Arbitraries.longs().between(0, 1L << 40).array(long[].class).ofSize(4);
        return Combinators.combine(
                        fileNames,
                        counts,
                        stats(),
                        smallInts.list().ofSize(4),
                        rowIds.list().ofSize(2))
                .as(
                        (name, c, stats, ints, ids) ->
                                new ManifestFileMeta(
                                        name,
                                        c[0],
                                        c[1],
                                        c[2],
                                        stats,
                                        c[3],
                                        ints.get(0),
                                        ints.get(1),
                                        ints.get(2),
                                        ints.get(3),
                                        ids.get(0),
                                        ids.get(1)));
    }

    private static Arbitrary<byte[]> keyRows() {
        BinaryRowCodec codec = BinaryRowCodec.of(new IntType());
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.just(BinaryRowCodec.emptyRow())),
                net.jqwik.api.Tuple.of(
                        1, Arbitraries.integers().map(i -> codec.serialize(GenericRowData.of(i)))));
    }

    private record Seq(long min, long max) {}
}
