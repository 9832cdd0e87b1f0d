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

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileKinds;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.schema.DataEvolutionTableValidator;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * The one provider-selection routine of data-evolution reads. The normal files of a group are
 * ordered by {@code maxSequenceNumber} descending (ties keep manifest order); each requested column
 * comes from the first file whose written columns contain its field id. Written columns are the
 * file's {@code writeCols} resolved by name through the file's OWN schema ({@code null} = every
 * column of that schema), so renames, drops, re-adds and reorders map by field id. An explicit NULL
 * in a newer file wins: there is no per-value fallback. A column no file wrote is NULL, or an error
 * when it is NOT NULL. Partition columns are never read from files: every row holds the group's
 * {@link PartitionValues}. A BLOB column no normal file wrote comes from the group's {@code .blob}
 * files of its field (every version of them; {@link BlobColumnReader} picks per row). A VECTOR
 * column no normal file wrote comes from the group's vector-store files: they form one bunch per
 * {@link VectorBunchKey} (schema id, format, columns written), the first bunch in key order that
 * holds the column provides it (Paimon 1.4.2's order, which writers follow: an update of a VECTOR
 * column writes into that bunch), and a bunch is read as the chain of its newest file at each
 * position ({@link VectorColumnsReader}). Reads and statistics pruning ({@link GroupStatistics})
 * both ask it, so a column's statistics always describe the values read.
 */
public final class ProviderSelection {

    /** A file of a group and where it is stored. */
    public record Candidate(Path path, DataFileMeta meta) {}

    /** The files to open (each with its columns) and the source of every output column. */
    public record Selected(List<GroupFile> files, List<FieldSource> sources) {}

    /** The file providing a column, and the column as that file's own schema declares it. */
    public record Provider(Candidate file, DataField stored) {}

    private ProviderSelection() {}

    /**
     * The providers of a group.
     *
     * @param normalFiles the group's normal files in manifest order (at least one, but for staged
     *     files of dedicated columns only: {@link StagedFiles})
     * @param dedicatedFiles the group's {@code .blob} and vector-store files
     * @param partition the group's partition
     * @param schemas schema by id
     */
    public static Providers of(
            List<Candidate> normalFiles,
            List<Candidate> dedicatedFiles,
            PartitionValues partition,
            LongFunction<TableSchema> schemas) {
        return new Providers(normalFiles, dedicatedFiles, partition, schemas);
    }

    /** The normal files of one group newest first, each with the columns it wrote. */
    public static final class Providers {

        private final List<Candidate> ordered;
        private final List<Map<Integer, DataField>> written;
        private final Map<Integer, BlobFiles> blobs = new HashMap<>();
        private final List<VectorBunch> vectorBunches; // in bunch-key order
        private final PartitionValues partition;
        private final LongFunction<TableSchema> schemas;

        private Providers(
                List<Candidate> normalFiles,
                List<Candidate> dedicatedFiles,
                PartitionValues partition,
                LongFunction<TableSchema> schemas) {
            this.partition = partition;
            this.schemas = schemas;
            Map<VectorBunchKey, List<Candidate>> bunches = new TreeMap<>();
            for (Candidate file : dedicatedFiles) {
                if (DataFileKinds.isVectorStore(file.meta().fileName())) {
                    bunches.computeIfAbsent(
                                    VectorBunchKey.of(file.meta(), schemas), k -> new ArrayList<>())
                            .add(file);
                    continue;
                }
                DataField field = blobField(file.meta(), schemas);
                blobs.computeIfAbsent(field.id(), id -> new BlobFiles(field, new ArrayList<>()))
                        .files()
                        .add(file);
            }
            vectorBunches = new ArrayList<>();
            bunches.values().forEach(files -> vectorBunches.add(new VectorBunch(files)));
            ordered = new ArrayList<>(normalFiles);
            ordered.sort(
                    Comparator.comparingLong((Candidate c) -> c.meta().maxSequenceNumber())
                            .reversed());
            written = new ArrayList<>();
            for (Candidate candidate : ordered) {
                written.add(writtenFields(candidate.meta(), schemas));
            }
        }

        /**
         * The file providing table column or {@code _ROW_ID} {@code field}, or null when no file
         * does (see {@link #providerOf}) or it is a partition column.
         */
        @Nullable
        public Provider provider(DataField field) {
            int i = providerOf(field);
            return i < 0 ? null : new Provider(ordered.get(i), written.get(i).get(field.id()));
        }

        /**
         * Whether {@code field} is read from {@code .blob} or vector-store files here (no normal
         * file provides it): such files carry no statistics.
         */
        public boolean fromDedicatedFiles(DataField field) {
            return providerOf(field) < 0
                    && (blobs.containsKey(field.id()) || vectorBunchOf(field) >= 0);
        }

        /** The group's partition, where its partition columns come from. */
        public PartitionValues partition() {
            return partition;
        }

        /** The {@code _SEQUENCE_NUMBER} of every row: the newest file's max sequence number. */
        public long sequenceNumber() {
            return ordered.isEmpty() ? 0 : ordered.get(0).meta().maxSequenceNumber();
        }

        /** The files to open for {@code fields} and the source of each of them. */
        public Selected select(List<DataField> fields) {
            return select(fields, false);
        }

        /**
         * The files to open for {@code fields} and the source of each of them; BLOB values from
         * {@code .blob} files are read as descriptors when {@code blobsAsDescriptors}.
         */
        public Selected select(List<DataField> fields, boolean blobsAsDescriptors) {
            List<List<DataField>> reads = new ArrayList<>(); // per ordered file: columns to read
            for (int i = 0; i < ordered.size(); i++) {
                reads.add(new ArrayList<>());
            }
            int[] provider = new int[fields.size()];
            int[] column = new int[fields.size()];
            for (int f = 0; f < fields.size(); f++) {
                DataField field = fields.get(f);
                provider[f] = providerOf(field);
                if (provider[f] >= 0) {
                    List<DataField> columns = reads.get(provider[f]);
                    column[f] = columns.size();
                    DataField stored = written.get(provider[f]).get(field.id());
                    columns.add(stored);
                } else if (!field.type().nullable()
                        && !blobs.containsKey(field.id())
                        && vectorBunchOf(field) < 0
                        && !isSystem(field)
                        && !partition.contains(field)) {
                    throw Errors.invalidLayout(
                            "Column '"
                                    + field.name()
                                    + "' is NOT NULL but no file of the row range starting at "
                                    + ordered.get(0).meta().firstRowId()
                                    + " contains it (files "
                                    + ordered.stream().map(c -> c.meta().fileName()).toList()
                                    + ").");
                }
            }
            List<GroupFile> files = new ArrayList<>();
            int[] opened = new int[ordered.size()]; // ordered position -> index in files
            for (int i = 0; i < ordered.size(); i++) {
                if (!reads.get(i).isEmpty()) {
                    opened[i] = files.size();
                    Candidate c = ordered.get(i);
                    files.add(new GroupFile(c.path(), c.meta(), reads.get(i)));
                }
            }
            List<FieldSource> sources = new ArrayList<>();
            Map<Integer, List<Integer>> bunchFiles = new HashMap<>(); // bunch -> its GroupFiles
            for (int f = 0; f < fields.size(); f++) {
                int id = fields.get(f).id();
                int file = provider[f] < 0 ? -1 : opened[provider[f]];
                if (partition.contains(fields.get(f))) {
                    sources.add(new FieldSource.PartitionValue(partition.value(fields.get(f))));
                } else if (id == SystemFields.SEQUENCE_NUMBER_FIELD_ID) {
                    sources.add(new FieldSource.SequenceNumber(sequenceNumber()));
                } else if (id == SystemFields.ROW_ID_FIELD_ID) {
                    sources.add(new FieldSource.RowId(file, file < 0 ? -1 : column[f]));
                } else if (file < 0 && blobs.containsKey(id)) {
                    BlobFiles blob = blobs.get(id);
                    List<Integer> parts = new ArrayList<>();
                    for (Candidate c : blob.files()) {
                        parts.add(files.size());
                        files.add(new GroupFile(c.path(), c.meta(), List.of(blob.stored())));
                    }
                    sources.add(
                            new FieldSource.FromBlobFiles(
                                    parts, blob.stored(), blobsAsDescriptors));
                } else if (file < 0 && vectorBunchOf(fields.get(f)) >= 0) {
                    int bunch = vectorBunchOf(fields.get(f));
                    List<Integer> parts =
                            bunchFiles.computeIfAbsent(
                                    bunch, b -> openBunch(vectorBunches.get(b), fields, files));
                    sources.add(new FieldSource.FromVectorFiles(parts, columnIn(files, parts, id)));
                } else if (file < 0) {
                    sources.add(new FieldSource.Null());
                } else {
                    sources.add(
                            new FieldSource.FromFile(
                                    file, column[f], files.get(file).columns().get(column[f])));
                }
            }
            return new Selected(files, sources);
        }

        /**
         * Adds the files of {@code bunch} to {@code files}, each with the columns of {@code fields}
         * the bunch holds, as that file's own schema declares them; returns their indexes.
         */
        private List<Integer> openBunch(
                VectorBunch bunch, List<DataField> fields, List<GroupFile> files) {
            List<Integer> parts = new ArrayList<>();
            for (Candidate c : bunch.files()) {
                Map<Integer, DataField> stored = writtenFields(c.meta(), schemas);
                List<DataField> columns = new ArrayList<>();
                for (DataField field : fields) {
                    if (stored.containsKey(field.id()) && providerOf(field) < 0) {
                        columns.add(stored.get(field.id()));
                    }
                }
                parts.add(files.size());
                files.add(new GroupFile(c.path(), c.meta(), columns));
            }
            return parts;
        }

        /** The column of field {@code id} in the bunch whose files are {@code parts}. */
        private static int columnIn(List<GroupFile> files, List<Integer> parts, int id) {
            List<DataField> columns = files.get(parts.get(0)).columns();
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).id() == id) {
                    return c;
                }
            }
            throw new IllegalStateException("No column of field " + id + " in its bunch");
        }

        /** The first vector-store bunch (newest first) holding {@code field}, or -1. */
        private int vectorBunchOf(DataField field) {
            for (int b = 0; b < vectorBunches.size(); b++) {
                if (vectorBunches.get(b).holds(field.id(), schemas)) {
                    return b;
                }
            }
            return -1;
        }

        /**
         * The position in {@code ordered} (newest first) of the file providing {@code field}, or
         * -1: the first file that wrote it; for {@code _ROW_ID} the newest file if it stores it
         * physically; never a file for {@code _SEQUENCE_NUMBER} and partition columns.
         */
        private int providerOf(DataField field) {
            if (field.id() == SystemFields.SEQUENCE_NUMBER_FIELD_ID || partition.contains(field)) {
                return -1;
            }
            if (field.id() == SystemFields.ROW_ID_FIELD_ID) {
                return !written.isEmpty()
                                && written.get(0).containsKey(SystemFields.ROW_ID_FIELD_ID)
                        ? 0
                        : -1;
            }
            for (int i = 0; i < written.size(); i++) {
                if (written.get(i).containsKey(field.id())) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** The {@code .blob} files of one BLOB field, and the field as their schemas declare it. */
    private record BlobFiles(DataField stored, List<Candidate> files) {}

    /** The vector-store files of a group with one {@link VectorBunchKey}. */
    private record VectorBunch(List<Candidate> files) {

        boolean holds(int fieldId, LongFunction<TableSchema> schemas) {
            return writtenFields(files.get(0).meta(), schemas).containsKey(fieldId);
        }
    }

    /** The BLOB field a {@code .blob} file holds: its one {@code writeCols} name, by its schema. */
    private static DataField blobField(DataFileMeta file, LongFunction<TableSchema> schemas) {
        TableSchema schema = schemas.apply(file.schemaId());
        List<String> names = file.writeCols();
        DataField field =
                names == null || names.size() != 1 ? null : schema.field(names.get(0)).orElse(null);
        if (field == null || !DataEvolutionTableValidator.isDedicatedColumn(schema, field)) {
            throw Errors.corruptFile(
                    file.fileName(),
                    "a .blob file must name one BLOB column of schema "
                            + schema.id()
                            + " in its writeCols, but they are "
                            + names);
        }
        return field;
    }

    private static boolean isSystem(DataField field) {
        return field.id() == SystemFields.ROW_ID_FIELD_ID
                || field.id() == SystemFields.SEQUENCE_NUMBER_FIELD_ID;
    }

    /**
     * The columns a normal file wrote, by field id, as its own schema declares them; {@code
     * _ROW_ID} is included under its reserved id when the file stores it physically.
     */
    public static Map<Integer, DataField> writtenFields(
            DataFileMeta file, LongFunction<TableSchema> schemas) {
        TableSchema schema = schemas.apply(file.schemaId());
        Map<Integer, DataField> out = new HashMap<>();
        if (file.writeCols() == null) { // a normal file never holds dedicated columns
            schema.fields().stream()
                    .filter(f -> !DataEvolutionTableValidator.isDedicatedColumn(schema, f))
                    .forEach(f -> out.put(f.id(), f));
            return out;
        }
        for (String name : file.writeCols()) {
            if (name.equals(SystemFields.ROW_ID.name())) {
                out.put(SystemFields.ROW_ID_FIELD_ID, SystemFields.ROW_ID);
                continue;
            }
            if (SystemFields.isSystemName(name)) {
                continue;
            }
            DataField field =
                    schema.field(name)
                            .orElseThrow(
                                    () ->
                                            Errors.corruptFile(
                                                    file.fileName(),
                                                    "its writeCols name column '"
                                                            + name
                                                            + "' which schema "
                                                            + schema.id()
                                                            + " (the file's schema) does not"
                                                            + " have"));
            out.put(field.id(), field);
        }
        return out;
    }
}
