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
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL query that computes a merge's changes, in the row layout {@link MergeSink} takes: {@code
 * _ROW_ID}, the action, the updated columns' new values, the inserted rows' values. The source is
 * joined with the target's rows of the base snapshot (a left join keeping every source row, a full
 * join when target rows without a match may be deleted); the planner reads only the target columns
 * the condition and expressions name. A condition {@code t._ROW_ID = s.x} with no insert and no
 * not-matched-by-source clause is a self-merge: the source's {@code x} is the row id and no join
 * runs. The query is planned twice: first with the raw expressions, whose types are checked against
 * the target columns, then with every value cast to its column's type.
 */
final class MergeQuery {

    private static final String SOURCE_ROW = "__dovetail_source_row";
    private static final String ACTION = "__dovetail_action";
    private static final Pattern QUALIFIED_COLUMN =
            Pattern.compile(
                    "^(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)\\s*\\.\\s*(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)$");

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

    private final MergeSpec spec;
    private final TableSchema target;
    private final LinkedHashMap<String, String> updates;
    @Nullable private final LinkedHashMap<String, String> inserts;
    @Nullable private final String selfMergeRowId;
    private final String fromClause;
    private final String sourceFromClause;

    private MergeQuery(
            MergeSpec spec,
            TableSchema target,
            LinkedHashMap<String, String> updates,
            @Nullable LinkedHashMap<String, String> inserts,
            @Nullable String selfMergeRowId,
            String fromClause,
            String sourceFromClause) {
        this.spec = spec;
        this.target = target;
        this.updates = updates;
        this.inserts = inserts;
        this.selfMergeRowId = selfMergeRowId;
        this.fromClause = fromClause;
        this.sourceFromClause = sourceFromClause;
    }

    /**
     * Plans the query of {@code spec} into {@code target} (referenced in SQL as {@code
     * targetReference}, pinned to its base snapshot) from a source with {@code sourceColumns}.
     */
    static MergeQuery plan(
            MergeSpec spec,
            TableSchema target,
            List<String> sourceColumns,
            String sourceReference,
            String targetReference) {
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
        LinkedHashMap<String, String> inserts = null;
        if (spec.notMatchedInsertValues() != null) {
            inserts = insertValues(spec, target, sourceColumns);
        }
        String selfMergeRowId = selfMergeRowId(spec, updates, inserts);
        String source = SqlFragments.quote(spec.sourceAlias());
        String sourceFrom = sourceReference + " AS " + source;
        String from;
        if (selfMergeRowId != null) {
            from = sourceFrom;
        } else {
            String join =
                    spec.notMatchedBySourceDeleteCondition() != null ? "FULL JOIN" : "LEFT JOIN";
            from =
                    "(SELECT *, TRUE AS "
                            + SOURCE_ROW
                            + " FROM "
                            + sourceReference
                            + ") AS "
                            + source
                            + " "
                            + join
                            + " "
                            + targetReference
                            + " AS "
                            + SqlFragments.quote(spec.targetAlias())
                            + " ON ("
                            + spec.mergeCondition()
                            + ")";
        }
        return new MergeQuery(spec, target, updates, inserts, selfMergeRowId, from, sourceFrom);
    }

    /** The target columns the merge updates, in the order of their values. */
    List<String> updatedColumns() {
        return List.copyOf(updates.keySet());
    }

    boolean inserts() {
        return inserts != null;
    }

    boolean isSelfMerge() {
        return selfMergeRowId != null;
    }

    /**
     * The {target column, source column} pairs of a merge that can run as a broadcast key join
     * ({@link MergeSink#buildBroadcastKeyJoin}), else empty: the merge only updates or deletes
     * matched rows, its condition is a conjunction of equalities between a target and a source
     * column of the same type (one whose binary form is its equality: no floating point, no nested
     * type), and no value or delete condition reads the target.
     */
    List<String[]> keyJoinColumns(ResolvedSchema source) {
        if (selfMergeRowId != null
                || inserts != null
                || spec.notMatchedBySourceDeleteCondition() != null
                || readsTarget(spec, updates)) {
            return List.of();
        }
        List<String[]> pairs = new ArrayList<>();
        for (String conjunct : SqlFragments.conjuncts("merge_condition", spec.mergeCondition())) {
            int eq = SqlFragments.assignmentSign("merge_condition", conjunct);
            String[] left = eq < 0 ? null : qualified(conjunct.substring(0, eq));
            String[] right = eq < 0 ? null : qualified(conjunct.substring(eq + 1));
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
                            columnType(targetSide[1]))) {
                return List.of();
            }
            pairs.add(new String[] {targetSide[1], sourceSide[1]});
        }
        return pairs;
    }

    /**
     * The source rows of a broadcast key join on {@code pairs} ({@link #keyJoinColumns}), in the
     * layout {@link MergeSink#buildBroadcastKeyJoin} takes: the keys as the target columns' types,
     * the action, the new values cast like {@link #query}'s (given the raw query's schema).
     */
    String keyJoinQuery(List<String[]> pairs, ResolvedSchema raw) {
        StringBuilder inner = new StringBuilder("SELECT ");
        StringBuilder outer = new StringBuilder("SELECT ");
        String source = SqlFragments.quote(spec.sourceAlias());
        for (int k = 0; k < pairs.size(); k++) {
            String[] pair = pairs.get(k);
            inner.append(source).append('.').append(SqlFragments.quote(pair[1]));
            inner.append(" AS `k").append(k).append("`, ");
            outer.append("CAST(`k").append(k).append("` AS ");
            outer.append(columnType(pair[0]).copy(true).asSerializableString()).append("), ");
        }
        inner.append('(').append(matchedAction()).append(") AS ").append(ACTION);
        outer.append("CAST(").append(ACTION).append(" AS TINYINT)");
        List<LogicalType> types =
                raw.getColumnDataTypes().stream().map(t -> t.getLogicalType()).toList();
        int u = 0;
        for (Map.Entry<String, String> update : updates.entrySet()) {
            inner.append(", ").append(update.getValue()).append(" AS `u").append(u).append('`');
            outer.append(", ")
                    .append(cast("u" + u, types.get(2 + u), update.getKey(), "matched_update_set"));
            u++;
        }
        inner.append(" FROM ").append(sourceFromClause);
        return outer.append(" FROM (").append(inner).append(')').toString();
    }

    /** The query with the raw value expressions (columns named by position). */
    String rawQuery() {
        StringBuilder select = new StringBuilder("SELECT ");
        select.append(rowIdExpression()).append(" AS `_ROW_ID`, ");
        select.append(actionExpression()).append(" AS ").append(ACTION);
        int i = 0;
        for (String expression : updates.values()) {
            select.append(", ").append(expression).append(" AS `u").append(i++).append('`');
        }
        if (inserts != null) {
            i = 0;
            for (String expression : inserts.values()) {
                select.append(", ").append(expression).append(" AS `i").append(i++).append('`');
            }
        }
        select.append(" FROM ").append(fromClause);
        if (spec.notMatchedBySourceDeleteCondition() != null && selfMergeRowId == null) {
            select.append(" WHERE ").append(actionExpression()).append(" IS NOT NULL");
        }
        return select.toString();
    }

    /**
     * The query in {@link MergeSink}'s layout, given the raw query's schema: each value checked
     * against and cast to its target column's type.
     */
    String query(ResolvedSchema raw) {
        List<LogicalType> types =
                raw.getColumnDataTypes().stream().map(t -> t.getLogicalType()).toList();
        StringBuilder select = new StringBuilder("SELECT CAST(`_ROW_ID` AS BIGINT), ");
        select.append("CAST(").append(ACTION).append(" AS TINYINT)");
        int i = 2;
        int u = 0;
        for (String column : updates.keySet()) {
            select.append(", ")
                    .append(cast("u" + u++, types.get(i++), column, "matched_update_set"));
        }
        if (inserts != null) {
            int n = 0;
            for (String column : inserts.keySet()) {
                select.append(", ")
                        .append(
                                cast(
                                        "i" + n++,
                                        types.get(i++),
                                        column,
                                        "not_matched_insert_values"));
            }
        }
        return select.append(" FROM (").append(rawQuery()).append(')').toString();
    }

    private String cast(String name, LogicalType given, String column, String argument) {
        LogicalType wanted = columnType(column);
        if (!assignable(given, wanted)) {
            throw new ValidationException(
                    argument
                            + ": column '"
                            + column
                            + "' of "
                            + spec.target()
                            + " is "
                            + wanted.asSummaryString()
                            + " but its value is "
                            + given.asSummaryString()
                            + "; CAST the value explicitly.");
        }
        return "CAST(`" + name + "` AS " + wanted.copy(true).asSerializableString() + ")";
    }

    private String rowIdExpression() {
        if (selfMergeRowId != null) {
            return "CAST("
                    + SqlFragments.quote(spec.sourceAlias())
                    + "."
                    + selfMergeRowId
                    + " AS BIGINT)";
        }
        return SqlFragments.quote(spec.targetAlias()) + ".`_ROW_ID`";
    }

    /** The action of a matched row: deleted if the delete condition holds, else updated. */
    private String matchedAction() {
        return "CASE WHEN "
                + condition(spec.matchedDeleteCondition())
                + " THEN "
                + MergeSink.DELETE
                + " ELSE "
                + (updates.isEmpty() ? MergeSink.MATCHED_NO_ACTION : MergeSink.UPDATE)
                + " END";
    }

    private String actionExpression() {
        String matched = matchedAction();
        if (selfMergeRowId != null) {
            return "(" + matched + ")";
        }
        String targetRow = SqlFragments.quote(spec.targetAlias()) + ".`_ROW_ID` IS NOT NULL";
        String sourceRow =
                SqlFragments.quote(spec.sourceAlias()) + "." + SOURCE_ROW + " IS NOT NULL";
        String notMatchedBySource =
                spec.notMatchedBySourceDeleteCondition() == null
                        ? "NULL"
                        : "CASE WHEN "
                                + condition(spec.notMatchedBySourceDeleteCondition())
                                + " THEN "
                                + MergeSink.DELETE_NOT_MATCHED_BY_SOURCE
                                + " END";
        return "(CASE WHEN "
                + targetRow
                + " AND "
                + sourceRow
                + " THEN "
                + matched
                + " WHEN "
                + sourceRow
                + " THEN "
                + (inserts != null ? MergeSink.INSERT : MergeSink.NOT_MATCHED_NO_ACTION)
                + " ELSE "
                + notMatchedBySource
                + " END)";
    }

    private static String condition(@Nullable String condition) {
        return condition == null ? "FALSE" : "(" + condition + ")";
    }

    private LogicalType columnType(String column) {
        return FlinkTypes.toFlink(target.field(column).orElseThrow().type());
    }

    /**
     * Whether a value of type {@code given} may be stored in a column of type {@code wanted}: an
     * implicit cast, or a cast within the same family (a narrower number, a shorter string, a
     * timestamp of another precision), which the written cast performs.
     */
    private static boolean assignable(LogicalType given, LogicalType wanted) {
        if (given.is(LogicalTypeRoot.NULL)
                || LogicalTypeCasts.supportsImplicitCast(given, wanted)) {
            return true;
        }
        for (LogicalTypeFamily family :
                List.of(
                        LogicalTypeFamily.NUMERIC,
                        LogicalTypeFamily.CHARACTER_STRING,
                        LogicalTypeFamily.BINARY_STRING,
                        LogicalTypeFamily.TIMESTAMP)) {
            if (given.is(family) && wanted.is(family)) {
                return true;
            }
        }
        return false;
    }

    /** The source column holding the row id, if the merge is a self-merge on {@code _ROW_ID}. */
    @Nullable
    private static String selfMergeRowId(
            MergeSpec spec, Map<String, String> updates, @Nullable Map<String, String> inserts) {
        if (inserts != null || spec.notMatchedBySourceDeleteCondition() != null) {
            return null;
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
        if (readsTarget(spec, updates)) {
            return null; // the values need the target's columns: join
        }
        return SqlFragments.quote(sourceSide[1]);
    }

    /** Whether a new value or the matched delete condition names a target column. */
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

    private static boolean isTargetRowId(MergeSpec spec, String[] reference) {
        return reference[0].equals(spec.targetAlias())
                && reference[1].equals(SystemFields.ROW_ID.name());
    }

    @Nullable
    private static String[] qualified(String text) {
        Matcher m = QUALIFIED_COLUMN.matcher(text.trim());
        if (!m.matches()) {
            return null;
        }
        return new String[] {unquote(m.group(1)), unquote(m.group(2))};
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
