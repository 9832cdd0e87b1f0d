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

import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.schema.ColumnPosition;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * A random data-evolution table written with the real writer and commit, and what it holds as a
 * naive model: for every group, the writes in commit order, each with the values it stored by field
 * id in the type it stored them. Appends go to a few partitions; partial-column updates rewrite
 * random column subsets of a group (explicit NULLs included); schema changes add, rename, drop,
 * move and change the type of columns in between; some rows are deleted.
 */
final class RandomLayout {

    static final String PARTITION = "p";
    static final int PARTITIONS = 3;
    private static final List<AtomicType> TYPES =
            List.of(DataTypes.INT(), DataTypes.BIGINT(), DataTypes.DOUBLE(), DataTypes.STRING());

    /** Values one file stored for one column, in the column's type in that file's schema. */
    record Column(AtomicType stored, List<Object> values) {}

    /** One data file of a group: its metadata and its columns by field id. */
    record Write(DataFileMeta meta, Map<Integer, Column> columns) {}

    /** A row-range group: partition, first row id, row count, writes oldest first, deletions. */
    record Group(
            int partition,
            long firstRowId,
            int rows,
            List<Write> writes,
            TreeSet<Integer> deleted) {}

    final TestTable table;
    final List<Group> groups = new ArrayList<>();
    final List<String> log = new ArrayList<>();
    private final Random random;
    private long nextRowId;
    private int nextName;

    private RandomLayout(Path dir, Random random) {
        this.random = random;
        List<DataField> fields = new ArrayList<>();
        fields.add(new DataField(0, PARTITION, DataTypes.INT()));
        int columns = 1 + random.nextInt(3);
        for (int i = 1; i <= columns; i++) {
            fields.add(new DataField(i, freshName(), randomType()));
        }
        table =
                new TestTable(
                        dir,
                        fields,
                        List.of(PARTITION),
                        Map.of("deletion-vectors.enabled", "true"));
        log.add("create " + fields);
    }

    /** A table built by {@code steps} random appends, updates, deletes and schema changes. */
    static RandomLayout build(Path dir, Random random, int steps) {
        RandomLayout layout = new RandomLayout(dir, random);
        layout.append();
        for (int i = 0; i < steps; i++) {
            int action = random.nextInt(10);
            if (action < 3) {
                layout.append();
            } else if (action < 6) {
                layout.update();
            } else if (action < 8) {
                layout.evolve();
            } else {
                layout.delete(List.of(layout.groups.get(random.nextInt(layout.groups.size()))));
            }
        }
        layout.delete(layout.groups.stream().filter(g -> random.nextInt(3) == 0).toList());
        return layout;
    }

    private void append() {
        int partition = random.nextInt(PARTITIONS);
        int rows = 1 + random.nextInt(12);
        List<DataField> fields = table.schema().fields();
        Map<Integer, Column> columns = new HashMap<>();
        List<GenericRowData> data = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            data.add(new GenericRowData(fields.size()));
        }
        for (int c = 0; c < fields.size(); c++) {
            DataField field = fields.get(c);
            AtomicType type = (AtomicType) field.type();
            List<Object> values = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                Object value = field.name().equals(PARTITION) ? (Object) partition : value(type);
                values.add(value);
                data.get(r).setField(c, internal(value));
            }
            columns.put(field.id(), new Column(type, values));
        }
        DataFileMeta meta = single(table.append(GenericRowData.of(partition), data)).file();
        groups.add(new Group(partition, nextRowId, rows, new ArrayList<>(), new TreeSet<>()));
        groups.get(groups.size() - 1).writes().add(new Write(meta, columns));
        log.add("append " + rows + " rows to partition " + partition + " as " + meta.fileName());
        nextRowId += rows;
    }

    private void update() {
        Group group = groups.get(random.nextInt(groups.size()));
        List<DataField> candidates = new ArrayList<>(dataFields());
        java.util.Collections.shuffle(candidates, random);
        List<DataField> written = candidates.subList(0, 1 + random.nextInt(candidates.size()));
        Map<Integer, Column> columns = new HashMap<>();
        List<GenericRowData> data = new ArrayList<>();
        for (int r = 0; r < group.rows(); r++) {
            data.add(new GenericRowData(written.size()));
        }
        for (int c = 0; c < written.size(); c++) {
            AtomicType type = (AtomicType) written.get(c).type();
            List<Object> values = new ArrayList<>();
            for (int r = 0; r < group.rows(); r++) {
                Object value = value(type);
                values.add(value);
                data.get(r).setField(c, internal(value));
            }
            columns.put(written.get(c).id(), new Column(type, values));
        }
        List<String> names = written.stream().map(DataField::name).toList();
        DataFileMeta meta =
                single(
                                table.update(
                                        GenericRowData.of(group.partition()),
                                        group.firstRowId(),
                                        names,
                                        data))
                        .file();
        group.writes().add(new Write(meta, columns));
        log.add(
                "update "
                        + names
                        + " of rows from "
                        + group.firstRowId()
                        + " as "
                        + meta.fileName());
    }

    private void evolve() {
        List<DataField> data = dataFields();
        DataField field = data.get(random.nextInt(data.size()));
        SchemaChange change;
        switch (random.nextInt(5)) {
            case 0:
                change = SchemaChange.addColumn(freshName(), randomType());
                break;
            case 1:
                change = SchemaChange.renameColumn(field.name(), freshName());
                break;
            case 2:
                if (data.size() == 1) {
                    return;
                }
                change = SchemaChange.dropColumn(field.name());
                break;
            case 3:
                change = SchemaChange.moveColumn(field.name(), ColumnPosition.first());
                break;
            default:
                TypeRoot root = field.type().root();
                if (root == TypeRoot.VARCHAR) {
                    return; // strings of arbitrary text have no numeric cast
                }
                List<AtomicType> others = TYPES.stream().filter(t -> t.root() != root).toList();
                AtomicType to = others.get(random.nextInt(others.size()));
                change = SchemaChange.updateColumnType(field.name(), to);
        }
        table.alter(change);
        log.add("alter " + change);
    }

    /**
     * Deletes random positions of {@code targets}, committed as deletion vectors of their anchors
     * (the first write of each group is its oldest normal file).
     */
    private void delete(List<Group> targets) {
        Map<String, long[]> positions = new HashMap<>();
        for (Group group : targets) {
            int count = 1 + random.nextInt(group.rows());
            long[] deleted = new long[count];
            for (int i = 0; i < count; i++) {
                deleted[i] = random.nextInt(group.rows());
                group.deleted().add((int) deleted[i]);
            }
            positions.put(group.writes().get(0).meta().fileName(), deleted);
            log.add(
                    "delete positions "
                            + Arrays.toString(deleted)
                            + " of rows from "
                            + group.firstRowId());
        }
        if (!positions.isEmpty()) {
            table.delete(positions);
        }
    }

    long nextRowId() {
        return nextRowId;
    }

    private List<DataField> dataFields() {
        return table.schema().fields().stream().filter(f -> !f.name().equals(PARTITION)).toList();
    }

    private String freshName() {
        return "c" + nextName++;
    }

    private AtomicType randomType() {
        return TYPES.get(random.nextInt(TYPES.size()));
    }

    /** A random value of {@code type} as a plain Java value; NULL one time in four. */
    private Object value(AtomicType type) {
        if (random.nextInt(4) == 0) {
            return null;
        }
        switch (type.root()) {
            case INT:
                return random.nextInt(10) == 0 ? random.nextInt() : random.nextInt(2001) - 1000;
            case BIGINT:
                return random.nextInt(10) == 0
                        ? random.nextLong()
                        : (long) random.nextInt(2001) - 1000;
            case DOUBLE:
                switch (random.nextInt(10)) {
                    case 0:
                        return Double.NaN;
                    case 1:
                        return random.nextDouble() * 1e12;
                    case 2:
                        return random.nextBoolean() ? 0.0 : -0.0;
                    default:
                        return Math.round(random.nextDouble() * 20000 - 10000) / 8.0;
                }
            default:
                return "s" + random.nextInt(1000);
        }
    }

    private static Object internal(Object value) {
        return value instanceof String s ? StringData.fromString(s) : value;
    }

    private static <T> T single(List<T> items) {
        if (items.size() != 1) {
            throw new AssertionError("expected one file, got " + items);
        }
        return items.get(0);
    }
}
