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
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.api.ValidationException;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merge's clauses checked against the target and the source's columns: the target columns the
 * matched rows' update sets with their value expressions, the values of inserted rows (one per
 * target column), and whether the merge is a self-merge: a condition {@code t._ROW_ID = s.x} with
 * no insert, no not-matched-by-source clause and no value reading the target, where the source's
 * {@code x} is the row id and no join runs.
 */
final class MergeClauses {

    private static final Pattern QUALIFIED_COLUMN =
            Pattern.compile(
                    "^(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)\\s*\\.\\s*(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)$");

    private final LinkedHashMap<String, String> updates;
    @Nullable private final LinkedHashMap<String, String> inserts;
    @Nullable private final String selfMergeRowId;
    private final boolean readsTarget;

    private MergeClauses(
            LinkedHashMap<String, String> updates,
            @Nullable LinkedHashMap<String, String> inserts,
            @Nullable String selfMergeRowId,
            boolean readsTarget) {
        this.updates = updates;
        this.inserts = inserts;
        this.selfMergeRowId = selfMergeRowId;
        this.readsTarget = readsTarget;
    }

    /** The clauses of {@code spec} into {@code target} from a source with {@code sourceColumns}. */
    static MergeClauses of(MergeSpec spec, TableSchema target, List<String> sourceColumns) {
        LinkedHashMap<String, String> updates = new LinkedHashMap<>();
        if (spec.matchedUpdateSet() != null) {
            updates =
                    spec.matchedUpdateSet().equals("*")
                            ? sharedColumns(spec, target, sourceColumns)
                            : assignments("matched_update_set", spec.matchedUpdateSet(), target);
            for (String column : updates.keySet()) {
                if (target.partitionKeys().contains(column)) {
                    throw new ValidationException(
                            "matched_update_set assigns partition column '"
                                    + column
                                    + "' of "
                                    + spec.target()
                                    + ": rows cannot move between partitions.");
                }
            }
        }
        LinkedHashMap<String, String> inserts =
                spec.notMatchedInsertValues() == null
                        ? null
                        : insertValues(spec, target, sourceColumns);
        boolean readsTarget = readsTarget(spec, updates);
        return new MergeClauses(
                updates, inserts, selfMergeRowId(spec, inserts, readsTarget), readsTarget);
    }

    /** The target columns the merge updates with their value expressions, in order. */
    Map<String, String> updates() {
        return updates;
    }

    /** The target columns the merge updates, in the order of their values. */
    List<String> updatedColumns() {
        return List.copyOf(updates.keySet());
    }

    /** The values of an inserted row by target column, all columns in order; null: no insert. */
    @Nullable
    Map<String, String> inserts() {
        return inserts;
    }

    /** The quoted source column holding the row id of a self-merge, else null. */
    @Nullable
    String selfMergeRowId() {
        return selfMergeRowId;
    }

    /** Whether a new value or the matched delete condition names a target column. */
    boolean readsTarget() {
        return readsTarget;
    }

    /** {@code alias.column} (either part quoted or not) as {alias, column}, else null. */
    @Nullable
    static String[] qualified(String text) {
        Matcher m = QUALIFIED_COLUMN.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        return new String[] {unquote(m.group(1)), unquote(m.group(2))};
    }

    @Nullable
    private static String selfMergeRowId(
            MergeSpec spec, @Nullable Map<String, String> inserts, boolean readsTarget) {
        if (inserts != null || spec.notMatchedBySourceDeleteCondition() != null || readsTarget) {
            return null; // an insert, or values needing the target's columns: join
        }
        String condition = spec.mergeCondition().trim();
        while (condition.startsWith("(") && condition.endsWith(")")) {
            condition = condition.substring(1, condition.length() - 1).trim();
        }
        int eq = SqlFragments.assignmentSign("merge_condition", condition);
        if (eq < 0) {
            return null;
        }
        String[] left = qualified(condition.substring(0, eq));
        String[] right = qualified(condition.substring(eq + 1));
        if (left == null || right == null) {
            return null;
        }
        String[] targetSide =
                isTargetRowId(spec, left) ? left : isTargetRowId(spec, right) ? right : null;
        String[] sourceSide = targetSide == left ? right : left;
        if (targetSide == null || !sourceSide[0].equals(spec.sourceAlias())) {
            return null;
        }
        return SqlFragments.quote(sourceSide[1]);
    }

    private static boolean readsTarget(MergeSpec spec, Map<String, String> updates) {
        List<String> expressions = new ArrayList<>(updates.values());
        if (spec.matchedDeleteCondition() != null) {
            expressions.add(spec.matchedDeleteCondition());
        }
        for (String expression : expressions) {
            if (SqlFragments.mentionsQualifier(expression, spec.targetAlias())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTargetRowId(MergeSpec spec, String[] reference) {
        return reference[0].equals(spec.targetAlias())
                && reference[1].equals(SystemFields.ROW_ID.name());
    }

    private static String unquote(String identifier) {
        return identifier.startsWith("`")
                ? identifier.substring(1, identifier.length() - 1)
                : identifier;
    }

    /** {@code *}: every non-system, non-partition target column the source also has. */
    private static LinkedHashMap<String, String> sharedColumns(
            MergeSpec spec, TableSchema target, List<String> sourceColumns) {
        LinkedHashMap<String, String> updates = new LinkedHashMap<>();
        for (DataField field : target.fields()) {
            if (sourceColumns.contains(field.name())
                    && !target.partitionKeys().contains(field.name())) {
                updates.put(field.name(), sourceValue(spec, field.name()));
            }
        }
        if (updates.isEmpty()) {
            throw new ValidationException(
                    "matched_update_set '*' needs source columns named like columns of "
                            + spec.target()
                            + " "
                            + updatableColumns(target)
                            + "; the source has "
                            + sourceColumns
                            + ".");
        }
        return updates;
    }

    /**
     * The values of inserted rows, one per target column in order: {@code *} takes each from the
     * source column of that name, assignments name theirs; a column given no value is NULL.
     */
    private static LinkedHashMap<String, String> insertValues(
            MergeSpec spec, TableSchema target, List<String> sourceColumns) {
        Map<String, String> given;
        if (spec.notMatchedInsertValues().equals("*")) {
            given = new LinkedHashMap<>();
            for (DataField field : target.fields()) {
                if (sourceColumns.contains(field.name())) {
                    given.put(field.name(), sourceValue(spec, field.name()));
                }
            }
            if (given.isEmpty()) {
                throw new ValidationException(
                        "not_matched_insert_values '*' needs source columns named like columns of "
                                + spec.target()
                                + " "
                                + target.fieldNames()
                                + "; the source has "
                                + sourceColumns
                                + ".");
            }
        } else {
            given = assignments("not_matched_insert_values", spec.notMatchedInsertValues(), target);
        }
        LinkedHashMap<String, String> values = new LinkedHashMap<>();
        for (DataField field : target.fields()) {
            String value = given.get(field.name());
            if (value == null && !field.type().nullable()) {
                throw new ValidationException(
                        "not_matched_insert_values gives no value for column '"
                                + field.name()
                                + "' of "
                                + spec.target()
                                + ", which is NOT NULL.");
            }
            values.put(
                    field.name(),
                    value == null
                            ? "CAST(NULL AS "
                                    + FlinkTypes.toFlink(field.type())
                                            .copy(true)
                                            .asSerializableString()
                                    + ")"
                            : value);
        }
        return values;
    }

    private static String sourceValue(MergeSpec spec, String column) {
        return SqlFragments.quote(spec.sourceAlias()) + "." + SqlFragments.quote(column);
    }

    /** {@code col = expr, ...}: target columns (qualifier dropped) and their value expressions. */
    private static LinkedHashMap<String, String> assignments(
            String argument, String text, TableSchema target) {
        LinkedHashMap<String, String> assigned = new LinkedHashMap<>();
        for (String item : SqlFragments.splitList(argument, text)) {
            int eq = SqlFragments.assignmentSign(argument, item);
            if (eq < 0) {
                throw new ValidationException(
                        argument + " must be 'column = expression' items, got '" + item + "'.");
            }
            String column = SqlFragments.columnName(argument, item.substring(0, eq));
            String value = item.substring(eq + 1).trim();
            if (SystemFields.isSystemName(column)) {
                throw new ValidationException(
                        argument
                                + " assigns system column '"
                                + column
                                + "'; row ids and sequence numbers are kept by the table.");
            }
            if (target.field(column).isEmpty()) {
                throw new ValidationException(
                        argument
                                + " assigns unknown column '"
                                + column
                                + "'; the target has "
                                + target.fieldNames()
                                + ".");
            }
            if (value.isEmpty() || assigned.put(column, value) != null) {
                throw new ValidationException(
                        argument
                                + (value.isEmpty() ? " gives no value for '" : " assigns '")
                                + column
                                + (value.isEmpty() ? "'." : "' twice."));
            }
        }
        return assigned;
    }

    private static Set<String> updatableColumns(TableSchema target) {
        Set<String> names = new TreeSet<>(target.fieldNames());
        names.removeAll(target.partitionKeys());
        return names;
    }
}
