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
package io.dovetail.table.read;

import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.BTreeIndexFile;
import io.dovetail.table.index.BTreeKeys;
import io.dovetail.table.index.BitmapIndexFile;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.GlobalIndexUpdateAction;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.scan.SnapshotFiles;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.core.fs.Path;

import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * Index-assisted reads: the row ids of each partition that a filter's equalities, INs and IS NULLs
 * on columns with B-tree or bitmap global indexes ({@link BTreeIndexFile}, {@link BitmapIndexFile})
 * may accept. For each such conjunct and each partition with index files on its column, the result
 * holds the rows the files name for the literals (each file's relative row ids plus its {@code
 * _ROW_RANGE_START}) and every row id no file of the partition covers (rows appended after the
 * index was built): the planner reads only those. Partitions without such files are absent and read
 * in full.
 *
 * <p>An index is trusted only where writes keep it right: Dovetail's and Paimon's writes refuse or
 * drop an index whose column they change ({@code global-index.column-update-action} THROW_ERROR or
 * DROP_PARTITION_INDEX), compaction keeps row ids and values, deletion vectors hide rows the index
 * still names (the read applies them), materialization and overwrite drop the indexes of what they
 * rewrite. Under IGNORE an index may name old values, so no index is used; nor is one of a column
 * whose type changed since (its keys are of the old type), of a type {@link BTreeKeys} does not
 * read, of an unsupported version or compression codec, or naming more than {@link #MAX_ROW_IDS}
 * rows of a partition (a scan is cheaper).
 */
final class GlobalIndexRowIds {

    static final int MAX_ROW_IDS = 1 << 20;

    private final TableStore store;

    private GlobalIndexRowIds(TableStore store) {
        this.store = store;
    }

    /** The rows each partition's indexes allow for {@code filter}; no entry: read all. */
    static Map<ByteBuffer, List<RowRange>> of(
            TableStore store, SnapshotFiles files, Predicate filter) {
        if (GlobalIndexUpdateAction.of(store.latestSchema().options())
                == GlobalIndexUpdateAction.IGNORE) {
            return Map.of();
        }
        List<IndexManifestEntry> indexes = files.indexFiles();
        if (indexes.stream().noneMatch(GlobalIndexFiles::isGlobalIndex)) {
            return Map.of();
        }
        GlobalIndexRowIds lookup = new GlobalIndexRowIds(store);
        Map<ByteBuffer, List<RowRange>> out = new HashMap<>();
        for (Predicate conjunct : conjuncts(filter)) {
            Map<ByteBuffer, List<RowRange>> ranges = lookup.ranges(conjunct, indexes);
            ranges.forEach((p, r) -> out.merge(p, r, RowIdRanges::intersect));
        }
        return out;
    }

    private Map<ByteBuffer, List<RowRange>> ranges(
            Predicate conjunct, List<IndexManifestEntry> indexes) {
        DataField field;
        List<Object> literals = new ArrayList<>();
        boolean nulls = false;
        if (conjunct instanceof Predicate.Compare compare && compare.op() == Predicate.Op.EQUAL) {
            field = compare.field();
            literals.add(compare.literal());
        } else if (conjunct instanceof Predicate.In in) {
            field = in.field();
            in.literals().stream().filter(l -> l != null).forEach(literals::add);
        } else if (conjunct instanceof Predicate.IsNull isNull) {
            field = isNull.field();
            nulls = true;
        } else {
            return Map.of();
        }
        Map<ByteBuffer, List<IndexManifestEntry>> byPartition = new LinkedHashMap<>();
        for (IndexManifestEntry entry :
                GlobalIndexFiles.ofColumn(indexes, GlobalIndexFiles.LOOKUP_TYPES, field.id())) {
            byPartition
                    .computeIfAbsent(ByteBuffer.wrap(entry.partition()), p -> new ArrayList<>())
                    .add(entry);
        }
        Optional<BTreeKeys> order = BTreeKeys.of(FlinkTypes.toFlink(field.type()));
        if (byPartition.isEmpty() || order.isEmpty() || !typeNeverChanged(field)) {
            return Map.of();
        }
        TreeSet<byte[]> keys = new TreeSet<>(order.get());
        literals.forEach(l -> keys.add(order.get().encode(l)));
        Map<ByteBuffer, List<RowRange>> out = new HashMap<>();
        try {
            for (Map.Entry<ByteBuffer, List<IndexManifestEntry>> partition :
                    byPartition.entrySet()) {
                List<RowRange> ranges =
                        partitionRanges(partition.getValue(), order.get(), keys, nulls);
                if (ranges == null) {
                    return Map.of();
                }
                out.put(partition.getKey(), ranges);
            }
        } catch (DovetailException e) {
            if (e.kind() == DovetailException.Kind.UNSUPPORTED) {
                return Map.of();
            }
            throw e;
        }
        return out;
    }

    /**
     * The partition's rows named by {@code keys} (and the NULL rows when {@code nulls}) and the
     * rows its files do not cover; null if too many.
     */
    private List<RowRange> partitionRanges(
            List<IndexManifestEntry> entries,
            BTreeKeys order,
            TreeSet<byte[]> keys,
            boolean nulls) {
        Roaring64Bitmap named = new Roaring64Bitmap();
        List<RowRange> covered = new ArrayList<>();
        for (IndexManifestEntry entry : entries) {
            GlobalIndexMeta meta = entry.indexFile().globalIndex();
            covered.add(new RowRange(meta.rowRangeStart(), meta.rowRangeEnd()));
            Path path = entry.indexFile().path(store.paths().indexDir());
            LongConsumer rows = id -> named.addLong(meta.rowRangeStart() + id);
            if (BitmapIndexFile.INDEX_TYPE.equals(entry.indexFile().indexType())) {
                BitmapIndexFile.lookup(path, order, new ArrayList<>(keys), nulls, rows);
            } else {
                long size = entry.indexFile().fileSize();
                List<byte[]> inFile =
                        BTreeIndexFile.keysInRange(meta.indexMeta(), order, new ArrayList<>(keys));
                if (!inFile.isEmpty()) {
                    BTreeIndexFile.lookup(path, size, order, inFile, rows);
                }
                if (nulls && BTreeIndexFile.mayHoldNulls(meta.indexMeta())) {
                    BTreeIndexFile.lookUpNulls(path, size, rows);
                }
            }
            if (named.getLongCardinality() > MAX_ROW_IDS) {
                return null;
            }
        }
        List<RowRange> ranges = RowIdRanges.complement(RowRange.normalize(covered));
        LongIterator ids = named.getLongIterator();
        while (ids.hasNext()) {
            long id = ids.next();
            ranges.add(new RowRange(id, id));
        }
        return RowRange.normalize(ranges);
    }

    /** Whether every schema of the table gives {@code field} its current type. */
    private boolean typeNeverChanged(DataField field) {
        for (long id : store.schemas().listIds()) {
            TableSchema schema = store.schemas().schema(id);
            for (DataField old : schema.fields()) {
                if (old.id() == field.id() && !old.type().equals(field.type())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@code filter} has a conjunct indexes may answer: an equality, IN or IS NULL. */
    static boolean hasLookup(Predicate filter) {
        for (Predicate conjunct : conjuncts(filter)) {
            if (conjunct instanceof Predicate.In
                    || conjunct instanceof Predicate.IsNull
                    || (conjunct instanceof Predicate.Compare compare
                            && compare.op() == Predicate.Op.EQUAL)) {
                return true;
            }
        }
        return false;
    }

    private static List<Predicate> conjuncts(Predicate filter) {
        List<Predicate> out = new ArrayList<>();
        if (filter instanceof Predicate.And and) {
            and.children().forEach(c -> out.addAll(conjuncts(c)));
        } else {
            out.add(filter);
        }
        return out;
    }
}
