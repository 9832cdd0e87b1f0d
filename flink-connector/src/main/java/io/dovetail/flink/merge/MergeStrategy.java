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
package io.dovetail.flink.merge;

import io.dovetail.flink.sql.SqlFragments;
import io.dovetail.table.error.SourceTooLargeToBroadcast;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.util.SerializedThrowable;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * How a merge runs, chosen before its job is built:
 *
 * <ul>
 *   <li>{@link Kind#SELF_MERGE}: the source carries the target's row ids ({@link
 *       MergeClauses#selfMergeRowId}); no join runs.
 *   <li>{@link Kind#BROADCAST_KEY_JOIN}: the merge only updates or deletes matched rows, its
 *       condition is a conjunction of equalities between a target and a source column whose binary
 *       forms are their equality, no value or delete condition reads the target, the table has a
 *       snapshot, and the source is a table of the catalog whose rows are estimated to fit under
 *       the limit ({@link BroadcastBudget}). Every writer holds the source and joins its own
 *       groups.
 *   <li>{@link Kind#SQL_JOIN}: everything else, and the fallback when a broadcast key join's source
 *       outgrows its budget at run time ({@link #outgrewBroadcast}).
 * </ul>
 *
 * @param keys the {target column, source column} pairs of a broadcast key join, else empty
 */
record MergeStrategy(Kind kind, List<KeyPair> keys) {

    enum Kind {
        SELF_MERGE,
        BROADCAST_KEY_JOIN,
        SQL_JOIN
    }

    /** A target column and the source column it equals in the merge condition. */
    record KeyPair(String targetColumn, String sourceColumn) {}

    /**
     * Key types whose binary rows are equal exactly when the values are (and VARCHAR, VARBINARY).
     */
    private static final Set<LogicalTypeRoot> KEY_TYPES =
            EnumSet.of(
                    LogicalTypeRoot.BOOLEAN,
                    LogicalTypeRoot.TINYINT,
                    LogicalTypeRoot.SMALLINT,
                    LogicalTypeRoot.INTEGER,
                    LogicalTypeRoot.BIGINT,
                    LogicalTypeRoot.DECIMAL,
                    LogicalTypeRoot.DATE,
                    LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE,
                    LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
                    LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    LogicalTypeRoot.CHAR,
                    LogicalTypeRoot.BINARY);

    MergeStrategy {
        keys = List.copyOf(keys);
    }

    /**
     * The strategy of {@code spec} into {@code target} (with {@code clauses}) from a source of
     * {@code source}'s columns.
     *
     * @param hasBase whether the target has a snapshot (an empty table gets inserts only)
     * @param sourceRows the source's row count when known (a table of the catalog), else empty
     * @param broadcastLimit the source size under which a broadcast key join runs; 0 turns it off
     */
    static MergeStrategy choose(
            MergeSpec spec,
            TableSchema target,
            MergeClauses clauses,
            ResolvedSchema source,
            boolean hasBase,
            OptionalLong sourceRows,
            long broadcastLimit) {
        if (clauses.selfMergeRowId() != null) {
            return new MergeStrategy(Kind.SELF_MERGE, List.of());
        }
        List<KeyPair> keys = hasBase ? keyJoinColumns(spec, target, clauses, source) : List.of();
        if (!keys.isEmpty()
                && sourceRows.isPresent()
                && BroadcastBudget.fits(
                        sourceRows.getAsLong(),
                        heldTypes(target, keys, clauses.updatedColumns()),
                        broadcastLimit)) {
            return new MergeStrategy(Kind.BROADCAST_KEY_JOIN, keys);
        }
        return new MergeStrategy(Kind.SQL_JOIN, List.of());
    }

    /**
     * Whether a job failure was caused by {@link SourceTooLargeToBroadcast}, also when the cause
     * arrives serialized (the client sees a {@link SerializedThrowable} where it could not load the
     * original class).
     */
    static boolean outgrewBroadcast(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SourceTooLargeToBroadcast
                    || (t instanceof SerializedThrowable serialized
                            && SourceTooLargeToBroadcast.class
                                    .getName()
                                    .equals(serialized.getOriginalErrorClassName()))) {
                return true;
            }
        }
        return false;
    }

    /** The types of a held source row: the keys, the action, the new values. */
    private static List<LogicalType> heldTypes(
            TableSchema target, List<KeyPair> keys, List<String> updated) {
        List<LogicalType> types =
                new ArrayList<>(
                        MergeSink.columnTypes(
                                target, keys.stream().map(KeyPair::targetColumn).toList()));
        types.add(new TinyIntType());
        types.addAll(MergeSink.columnTypes(target, updated));
        return types;
    }

    /** The key pairs of a merge that may run as a broadcast key join, else empty. */
    private static List<KeyPair> keyJoinColumns(
            MergeSpec spec, TableSchema target, MergeClauses clauses, ResolvedSchema source) {
        if (clauses.inserts() != null
                || spec.notMatchedBySourceDeleteCondition() != null
                || clauses.readsTarget()) {
            return List.of();
        }
        List<KeyPair> pairs = new ArrayList<>();
        for (String conjunct : SqlFragments.conjuncts("merge_condition", spec.mergeCondition())) {
            int eq = SqlFragments.assignmentSign("merge_condition", conjunct);
            String[] left = eq < 0 ? null : MergeClauses.qualified(conjunct.substring(0, eq));
            String[] right = eq < 0 ? null : MergeClauses.qualified(conjunct.substring(eq + 1));
            if (left == null || right == null) {
                return List.of();
            }
            String[] targetSide = left[0].equals(spec.targetAlias()) ? left : right;
            String[] sourceSide = targetSide == left ? right : left;
            if (!targetSide[0].equals(spec.targetAlias())
                    || !sourceSide[0].equals(spec.sourceAlias())
                    || target.field(targetSide[1]).isEmpty()
                    || source.getColumn(sourceSide[1]).isEmpty()
                    || !binaryEqualKeys(
                            source.getColumn(sourceSide[1]).get().getDataType().getLogicalType(),
                            FlinkTypes.toFlink(target.field(targetSide[1]).get().type()))) {
                return List.of();
            }
            pairs.add(new KeyPair(targetSide[1], sourceSide[1]));
        }
        return pairs;
    }

    /**
     * Whether a source key of type {@code source} equals a target key of type {@code target}
     * exactly when their binary rows are equal: the same type (character and byte strings of any
     * length), and not floating point (NaN, -0.0) or nested.
     */
    private static boolean binaryEqualKeys(LogicalType source, LogicalType target) {
        if (source.is(LogicalTypeRoot.VARCHAR) && target.is(LogicalTypeRoot.VARCHAR)
                || source.is(LogicalTypeRoot.VARBINARY) && target.is(LogicalTypeRoot.VARBINARY)) {
            return true;
        }
        return KEY_TYPES.contains(target.getTypeRoot())
                && source.copy(true).equals(target.copy(true));
    }
}
