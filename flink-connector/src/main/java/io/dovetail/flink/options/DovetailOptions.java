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
package io.dovetail.flink.options;

import io.dovetail.flink.catalog.DovetailCatalogFactory;
import io.dovetail.flink.sink.OverwriteScope;
import io.dovetail.flink.table.DovetailTableFactory;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.format.DataFileFormat;
import io.dovetail.table.index.GlobalIndexUpdateAction;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.manifest.ManifestFileWriter;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.snapshot.SnapshotPins;
import io.dovetail.table.write.DataFileWriterOptions;
import io.dovetail.table.write.StatsMode;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every option Dovetail reads, in one list per place it is set: the catalog's, the scans' and
 * writes', and the table options of the Paimon format. docs/configuration.md is generated from
 * these lists and checked against them in the build.
 */
public final class DovetailOptions {

    /** Where an option is set, with the heading and the sentence that introduce it in the docs. */
    public enum Scope {
        CATALOG("Catalog options", "Set in `CREATE CATALOG c WITH ('type' = 'dovetail', ...)`."),
        SCAN_AND_WRITE(
                "Scan and write options",
                "Set as table options or per statement with an `OPTIONS` hint, e.g."
                        + " `SELECT * FROM t /*+ OPTIONS('scan.snapshot-id' = '3') */`. A hinted"
                        + " key starting with `scan.`, `source.`, `sink.` or `continuous.` that is"
                        + " not listed here is refused."),
        SESSION(
                "Session options",
                "Set in the SQL session before a `CALL`, e.g. `SET"
                        + " 'dovetail.merge.broadcast-join.max-source-size' = '16 mb';`; read by"
                        + " the procedures."),
        TABLE(
                "Table options",
                "Set in `CREATE TABLE ... WITH (...)` or `ALTER TABLE ... SET (...)`, with Apache"
                        + " Paimon's names and defaults; stored in the table's schema file.");

        public final String heading;
        public final String introduction;

        Scope(String heading, String introduction) {
            this.heading = heading;
            this.introduction = introduction;
        }
    }

    public static final ConfigOption<String> FILE_FORMAT =
            ConfigOptions.key(TableOptions.FILE_FORMAT)
                    .stringType()
                    .defaultValue(DataFileFormat.DEFAULT.extension())
                    .withDescription("Format of new data files: 'parquet' or 'orc'.");

    public static final ConfigOption<String> FILE_COMPRESSION =
            ConfigOptions.key(DataFileWriterOptions.FILE_COMPRESSION)
                    .stringType()
                    .defaultValue("zstd")
                    .withDescription(
                            "Compression codec of new data files, one the file format supports.");

    public static final ConfigOption<Integer> ZSTD_LEVEL =
            ConfigOptions.key(DataFileWriterOptions.ZSTD_LEVEL)
                    .intType()
                    .defaultValue(1)
                    .withDescription("zstd level of new data files.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
            ConfigOptions.key(DataFileWriterOptions.TARGET_FILE_SIZE)
                    .memoryType()
                    .defaultValue(MemorySize.parse("256 mb"))
                    .withDescription(
                            "A writer rolls to a new data file once a file reaches this size;"
                                    + " compaction packs files up to it.");

    public static final ConfigOption<Long> TARGET_FILE_ROW_NUM =
            ConfigOptions.key(DataFileWriterOptions.TARGET_FILE_ROW_NUM)
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "A writer rolls to a new data file once a file holds this many rows."
                                    + " Default: no row limit.");

    public static final ConfigOption<String> STATS_MODE =
            ConfigOptions.key(DataFileWriterOptions.STATS_MODE)
                    .stringType()
                    .defaultValue(StatsMode.DEFAULT.toString())
                    .withDescription(
                            "Column statistics kept in the manifests: 'none', 'counts',"
                                    + " 'truncate(N)' or 'full'.");

    public static final ConfigOption<String> FIELD_STATS_MODE =
            ConfigOptions.key(
                            DataFileWriterOptions.FIELDS_PREFIX
                                    + "<column>"
                                    + DataFileWriterOptions.FIELD_STATS_MODE_SUFFIX)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The statistics mode of one column, overriding metadata.stats-mode.");

    public static final ConfigOption<Integer> STATS_KEEP_FIRST_N_COLUMNS =
            ConfigOptions.key(DataFileWriterOptions.STATS_KEEP_FIRST_N_COLUMNS)
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Only the first N columns get statistics unless a column sets its own"
                                    + " mode; -1 keeps them for every column.");

    public static final ConfigOption<Boolean> STATS_DENSE_STORE =
            ConfigOptions.key(DataFileWriterOptions.STATS_DENSE_STORE)
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Store statistics only for the columns that have them (Paimon's dense"
                                    + " layout).");

    public static final ConfigOption<String> FORMAT_PASS_THROUGH =
            ConfigOptions.key("parquet.* / orc.*")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Options of the table's file format, handed to the Parquet or ORC"
                                    + " writer unchanged (e.g. parquet.block.size).");

    public static final ConfigOption<Boolean> ROW_TRACKING_ENABLED =
            ConfigOptions.key(TableOptions.ROW_TRACKING_ENABLED)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Rows get a stable _ROW_ID. Must be true for a data-evolution table;"
                                    + " fixed at CREATE TABLE. The Dovetail catalog's CREATE TABLE"
                                    + " sets it to true when absent; the default applies to a table"
                                    + " stored without it (as Paimon reads it).");

    public static final ConfigOption<Boolean> DATA_EVOLUTION_ENABLED =
            ConfigOptions.key(TableOptions.DATA_EVOLUTION_ENABLED)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Updates write only the updated columns. Must be true for a"
                                    + " data-evolution table; fixed at CREATE TABLE. The Dovetail"
                                    + " catalog's CREATE TABLE sets it to true when absent; the"
                                    + " default applies to a table stored without it (as Paimon"
                                    + " reads it).");

    public static final ConfigOption<Integer> BUCKET =
            ConfigOptions.key(TableOptions.BUCKET)
                    .intType()
                    .defaultValue(-1)
                    .withDescription(
                            "Must be -1 (bucket-unaware) for a data-evolution table; fixed at"
                                    + " CREATE TABLE.");

    public static final ConfigOption<Boolean> CLUSTERING_INCREMENTAL =
            ConfigOptions.key(TableOptions.CLUSTERING_INCREMENTAL)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription("Must be false for a data-evolution table.");

    public static final ConfigOption<Boolean> DELETION_VECTORS_ENABLED =
            ConfigOptions.key(TableOptions.DELETION_VECTORS_ENABLED)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "DELETE FROM writes deletion vectors; without it only whole"
                                    + " partitions can be removed (INSERT OVERWRITE).");

    public static final ConfigOption<Boolean> DELETION_VECTORS_MODIFIABLE =
            ConfigOptions.key(TableOptions.DELETION_VECTORS_MODIFIABLE)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Allows changing deletion-vectors.enabled after CREATE TABLE.");

    public static final ConfigOption<Boolean> DELETION_VECTORS_BITMAP64 =
            ConfigOptions.key(TableOptions.DELETION_VECTORS_BITMAP64)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "64-bit deletion vectors: Dovetail writes only 32-bit ones and"
                                    + " refuses to delete from a table with this set to true.");

    public static final ConfigOption<Duration> CONSUMER_EXPIRATION_TIME =
            ConfigOptions.key(TableOptions.CONSUMER_EXPIRATION_TIME)
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "Snapshot expiry removes a streaming consumer ('consumer-id') whose"
                                    + " position was not recorded for this long, so a job that"
                                    + " stopped for good no longer holds snapshots; a job's pin"
                                    + " is kept (it has its own lease). No default: consumers"
                                    + " stay until reset_consumer or clear_consumers removes"
                                    + " them.");

    public static final ConfigOption<Duration> SNAPSHOT_PIN_LEASE =
            ConfigOptions.key(TableOptions.SNAPSHOT_PIN_LEASE)
                    .durationType()
                    .defaultValue(SnapshotPins.DEFAULT_LEASE)
                    .withDescription(
                            "A batch write (UPDATE, DELETE, merge, compaction, materialization)"
                                    + " pins its base snapshot and the snapshots after it while"
                                    + " it runs, as a consumer entry that Apache Paimon's expiry"
                                    + " honours too, so a job longer than the snapshot retention"
                                    + " still commits; the pin holds at most this long, so a job"
                                    + " that crashed holds snapshots no longer than that.");

    public static final ConfigOption<GlobalIndexUpdateAction> GLOBAL_INDEX_COLUMN_UPDATE_ACTION =
            ConfigOptions.key(TableOptions.GLOBAL_INDEX_COLUMN_UPDATE_ACTION)
                    .enumType(GlobalIndexUpdateAction.class)
                    .defaultValue(GlobalIndexUpdateAction.THROW_ERROR)
                    .withDescription(
                            "What a write does that changes a column covered by a global index"
                                    + " (built by create_global_index, Dovetail's or Apache"
                                    + " Paimon's) in a partition it writes: THROW_ERROR refuses"
                                    + " it before it commits; DROP_PARTITION_INDEX drops those"
                                    + " partitions' index files of the column in the same"
                                    + " commit; IGNORE keeps them, so Paimon's indexed reads may"
                                    + " miss the changed rows (Dovetail's reads use no index"
                                    + " while it is IGNORE)."
                                    + " Deletion-vector materialization and INSERT OVERWRITE"
                                    + " always drop the global indexes of the partitions they"
                                    + " rewrite (their rows get new row ids).");

    public static final ConfigOption<String> BLOB_FIELD =
            ConfigOptions.key(TableOptions.BLOB_FIELD)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma list of BYTES columns that CREATE TABLE declares BLOB columns:"
                                    + " their values (images, audio, documents) are stored in"
                                    + " .blob files of their own, which a query that does not"
                                    + " select them never opens and an update of other columns"
                                    + " never rewrites. Flink sees them as"
                                    + " VARBINARY(2147483647). A value that is a serialized BLOB"
                                    + " descriptor (see 'blob-as-descriptor') is replaced by the"
                                    + " bytes it references. ALTER TABLE SET may only add or"
                                    + " remove names of columns the table does not have: a BYTES"
                                    + " column it names becomes a BLOB column when added.");

    public static final ConfigOption<String> BLOB_DESCRIPTOR_FIELD =
            ConfigOptions.key(TableOptions.BLOB_DESCRIPTOR_FIELD)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma list of BLOB columns (named in 'blob-field' too) stored"
                                    + " inline in the normal data files as serialized descriptors"
                                    + " (references to bytes kept elsewhere) instead of in .blob"
                                    + " files (Paimon's older key 'blob.stored-descriptor-fields'"
                                    + " is read too). Written values must be descriptors (for"
                                    + " example sys.path_to_descriptor('<file>')); reads return"
                                    + " the bytes they reference, or the descriptors with"
                                    + " 'blob-as-descriptor'. Updates and merges rewrite only the"
                                    + " descriptors. Fixed at CREATE TABLE.");

    public static final ConfigOption<Boolean> BLOB_AS_DESCRIPTOR =
            ConfigOptions.key(TableOptions.BLOB_AS_DESCRIPTOR)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Reads return each BLOB value of a .blob file as a serialized"
                                    + " descriptor (version 2, the 'BLOBDESC' magic, the file's"
                                    + " URI, the offset and length of the bytes inside it)"
                                    + " instead of the bytes, which are then not read, and the"
                                    + " values of 'blob-descriptor-field' columns as the"
                                    + " descriptors stored. Also an OPTIONS hint.");

    public static final ConfigOption<MemorySize> BLOB_TARGET_FILE_SIZE =
            ConfigOptions.key(TableOptions.BLOB_TARGET_FILE_SIZE)
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "A .blob file rolls once it holds this many bytes (default"
                                    + " 'target-file-size'); it also closes with the normal file"
                                    + " whose rows it holds.");

    public static final ConfigOption<String> VECTOR_FIELD =
            ConfigOptions.key(TableOptions.VECTOR_FIELD)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Comma list of ARRAY columns that CREATE TABLE declares VECTOR columns"
                                    + " (embeddings): fixed-length vectors of BOOLEAN, TINYINT,"
                                    + " SMALLINT, INT, BIGINT, FLOAT or DOUBLE with no NULL"
                                    + " element, stored in vector-store files. Each needs"
                                    + " field.<column>.vector-dim and the table"
                                    + " vector.file.format. Flink sees them as ARRAY columns.");

    public static final ConfigOption<Integer> VECTOR_DIM =
            ConfigOptions.key(TableOptions.vectorDimKey("<column>"))
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "The dimension of VECTOR column <column>: every value has exactly"
                                    + " this many elements.");

    public static final ConfigOption<Boolean> GLOBAL_INDEX_ENABLED =
            ConfigOptions.key(TableOptions.GLOBAL_INDEX_ENABLED)
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "A batch read whose filter has an equality, IN or IS NULL on a column"
                                    + " with B-tree or bitmap global indexes reads only the rows the indexes"
                                    + " name and the rows they do not cover (see Queries,"
                                    + " index-assisted reads); false scans. Also an OPTIONS"
                                    + " hint.");

    public static final ConfigOption<String> VECTOR_FILE_FORMAT =
            ConfigOptions.key(TableOptions.VECTOR_FILE_FORMAT)
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The format of the vector-store files that hold the table's VECTOR"
                                    + " columns: 'avro' (compressed with file.compression) or"
                                    + " 'json' (uncompressed). Required by VECTOR columns;"
                                    + " Paimon's 'lance' is refused (it needs a native"
                                    + " library).");

    public static final ConfigOption<MemorySize> VECTOR_TARGET_FILE_SIZE =
            ConfigOptions.key(TableOptions.VECTOR_TARGET_FILE_SIZE)
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "A vector-store file rolls once it holds this many bytes (default ten"
                                    + " times 'target-file-size'); it also closes with the normal"
                                    + " file whose rows it holds.");

    public static final ConfigOption<String> PARTITION_DEFAULT_NAME =
            ConfigOptions.key(PartitionPaths.DEFAULT_NAME_OPTION)
                    .stringType()
                    .defaultValue(PartitionPaths.DEFAULT_NAME)
                    .withDescription(
                            "Directory name of a partition whose value is null, empty or blank.");

    public static final ConfigOption<Boolean> PARTITION_LEGACY_NAME =
            ConfigOptions.key(PartitionPaths.LEGACY_NAME_OPTION)
                    .booleanType()
                    .defaultValue(PartitionPaths.LEGACY_NAME_DEFAULT)
                    .withDescription(
                            "Partition directories use the legacy (Java toString) value strings.");

    public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
            ConfigOptions.key(TableOptions.COMMIT_MAX_RETRIES)
                    .intType()
                    .defaultValue(TableCommit.DEFAULT_MAX_RETRIES)
                    .withDescription(
                            "How often a commit that lost the race for a snapshot id is retried.");

    public static final ConfigOption<Boolean> COMMIT_SINGLE_WRITER =
            ConfigOptions.key(TableOptions.COMMIT_SINGLE_WRITER)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Declares that only one writer ever commits to the table, so commits"
                                    + " proceed on an object store that ignores conditional writes"
                                    + " (no protection against a second writer).");

    public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
            ConfigOptions.key(TableOptions.MANIFEST_MERGE_MIN_COUNT)
                    .intType()
                    .defaultValue(TableCommit.DEFAULT_MANIFEST_MERGE_MIN_COUNT)
                    .withDescription(
                            "A commit merges the small manifests at the end of the manifest list"
                                    + " into one once there are this many of them.");

    public static final ConfigOption<MemorySize> MANIFEST_TARGET_FILE_SIZE =
            ConfigOptions.key(TableOptions.MANIFEST_TARGET_FILE_SIZE)
                    .memoryType()
                    .defaultValue(new MemorySize(ManifestFileWriter.DEFAULT_TARGET_FILE_SIZE))
                    .withDescription(
                            "A manifest file rolls once it reaches this size; a commit merges runs"
                                    + " of consecutive manifests up to it.");

    public static final ConfigOption<MemorySize> MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE =
            ConfigOptions.key(TableOptions.MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE)
                    .memoryType()
                    .defaultValue(MemorySize.parse("16 mb"))
                    .withDescription(
                            "Once the manifests that are smaller than manifest.target-file-size or"
                                    + " hold deletions weigh this much together, a commit rewrites"
                                    + " them (and the manifests of partitions with deleted files)"
                                    + " with only their live files.");

    public static final ConfigOption<Integer> COMPACTION_MIN_FILE_NUM =
            ConfigOptions.key(TableOptions.COMPACTION_MIN_FILE_NUM)
                    .intType()
                    .defaultValue(CompactionConfig.DEFAULT_MIN_FILE_NUM)
                    .withDescription(
                            "Compaction rewrites a row-range group (column-selective, the"
                                    + " default) or a bin of groups (compact_strategy 'full') only"
                                    + " when it holds at least this many files.");

    public static final ConfigOption<Boolean> COMPACTION_DEDICATED_FILES =
            ConfigOptions.key(TableOptions.COMPACTION_DEDICATED_FILES)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Compaction also folds, per row-range group, the .blob files of each"
                                    + " BLOB column and the vector-store files into one file over"
                                    + " the group's rows (row ids kept): when the group has at"
                                    + " least compaction.min.file-num (and two) of them and they"
                                    + " hold older versions of some row or weigh at most the"
                                    + " column's target file size together. A Dovetail option"
                                    + " (Paimon 1.4.2 never compacts them; it reads the result);"
                                    + " also a compact procedure option.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
            ConfigOptions.key(TableOptions.SNAPSHOT_NUM_RETAINED_MIN)
                    .intType()
                    .defaultValue(ExpireConfig.DEFAULT_RETAIN_MIN)
                    .withDescription("Snapshot expiry keeps at least this many newest snapshots.");

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
            ConfigOptions.key(TableOptions.SNAPSHOT_NUM_RETAINED_MAX)
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Snapshot expiry keeps at most this many snapshots. Default:"
                                    + " unbounded.");

    public static final ConfigOption<Duration> SNAPSHOT_TIME_RETAINED =
            ConfigOptions.key(TableOptions.SNAPSHOT_TIME_RETAINED)
                    .durationType()
                    .defaultValue(ExpireConfig.DEFAULT_TIME_RETAINED)
                    .withDescription("Snapshot expiry keeps snapshots younger than this.");

    public static final ConfigOption<Integer> SNAPSHOT_EXPIRE_LIMIT =
            ConfigOptions.key(TableOptions.SNAPSHOT_EXPIRE_LIMIT)
                    .intType()
                    .defaultValue(ExpireConfig.DEFAULT_MAX_EXPIRES)
                    .withDescription("Snapshot expiry removes at most this many snapshots a run.");

    public static final ConfigOption<Boolean> WRITE_ONLY =
            ConfigOptions.key(TableOptions.WRITE_ONLY)
                    .booleanType()
                    .defaultValue(false)
                    .withDescription("Writes skip the snapshot expiry that follows each commit.");

    public static final ConfigOption<Boolean> DYNAMIC_PARTITION_OVERWRITE =
            ConfigOptions.key(OverwriteScope.DYNAMIC_PARTITION_OVERWRITE)
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "INSERT OVERWRITE without a static partition replaces only the"
                                    + " partitions it writes; false replaces the whole table.");

    public static final ConfigOption<MemorySize> MERGE_BROADCAST_JOIN_MAX_SOURCE_SIZE =
            ConfigOptions.key("dovetail.merge.broadcast-join.max-source-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("256 mb"))
                    .withDescription(
                            "A merge that only updates or deletes matched rows, on a condition"
                                    + " equating target and source columns, runs as a broadcast"
                                    + " key join when its source is a table of the catalog whose"
                                    + " rows are estimated to take at most this much heap (row"
                                    + " count x (72 bytes + 8 per key or value column + 24 per"
                                    + " variable-width one)): every writer holds the whole source"
                                    + " by key and joins the target rows of its own row-range"
                                    + " groups as it reads their keys, so nothing is shuffled but"
                                    + " the source. A writer whose copy outgrows twice this, or"
                                    + " half its slot's share of the heap, stops before writing"
                                    + " anything and the merge reruns as the SQL join. Every other"
                                    + " merge runs the SQL join. '0' turns it off.");

    private static final List<ConfigOption<?>> TABLE =
            List.of(
                    ROW_TRACKING_ENABLED,
                    DATA_EVOLUTION_ENABLED,
                    BUCKET,
                    CLUSTERING_INCREMENTAL,
                    DELETION_VECTORS_ENABLED,
                    DELETION_VECTORS_MODIFIABLE,
                    DELETION_VECTORS_BITMAP64,
                    GLOBAL_INDEX_COLUMN_UPDATE_ACTION,
                    GLOBAL_INDEX_ENABLED,
                    SNAPSHOT_PIN_LEASE,
                    CONSUMER_EXPIRATION_TIME,
                    BLOB_FIELD,
                    BLOB_DESCRIPTOR_FIELD,
                    BLOB_AS_DESCRIPTOR,
                    BLOB_TARGET_FILE_SIZE,
                    VECTOR_FIELD,
                    VECTOR_DIM,
                    VECTOR_FILE_FORMAT,
                    VECTOR_TARGET_FILE_SIZE,
                    FILE_FORMAT,
                    FILE_COMPRESSION,
                    ZSTD_LEVEL,
                    TARGET_FILE_SIZE,
                    TARGET_FILE_ROW_NUM,
                    STATS_MODE,
                    FIELD_STATS_MODE,
                    STATS_KEEP_FIRST_N_COLUMNS,
                    STATS_DENSE_STORE,
                    FORMAT_PASS_THROUGH,
                    PARTITION_DEFAULT_NAME,
                    PARTITION_LEGACY_NAME,
                    DYNAMIC_PARTITION_OVERWRITE,
                    WRITE_ONLY,
                    COMMIT_MAX_RETRIES,
                    COMMIT_SINGLE_WRITER,
                    MANIFEST_MERGE_MIN_COUNT,
                    MANIFEST_TARGET_FILE_SIZE,
                    MANIFEST_FULL_COMPACTION_THRESHOLD_SIZE,
                    COMPACTION_MIN_FILE_NUM,
                    COMPACTION_DEDICATED_FILES,
                    SNAPSHOT_NUM_RETAINED_MIN,
                    SNAPSHOT_NUM_RETAINED_MAX,
                    SNAPSHOT_TIME_RETAINED,
                    SNAPSHOT_EXPIRE_LIMIT);

    private DovetailOptions() {}

    /** The options of {@code scope}, in the order the docs list them. */
    public static List<ConfigOption<?>> of(Scope scope) {
        switch (scope) {
            case CATALOG:
                DovetailCatalogFactory catalog = new DovetailCatalogFactory();
                return byKey(catalog.requiredOptions(), catalog.optionalOptions());
            case SCAN_AND_WRITE:
                return byKey(DovetailTableFactory.OPTIONS);
            case SESSION:
                return List.of(MERGE_BROADCAST_JOIN_MAX_SOURCE_SIZE);
            default:
                return TABLE;
        }
    }

    @SafeVarargs
    private static List<ConfigOption<?>> byKey(Set<ConfigOption<?>>... sets) {
        return Stream.of(sets)
                .flatMap(Set::stream)
                .sorted(Comparator.comparing(ConfigOption::key))
                .toList();
    }
}
