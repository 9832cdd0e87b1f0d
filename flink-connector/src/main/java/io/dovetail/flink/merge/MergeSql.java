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
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeCasts;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;

/**
 * The SQL text that computes a merge's changes, in the row layout {@link MergeSink} takes: {@code
 * _ROW_ID}, the action ({@link MergeContract}), the updated columns' new values, the inserted rows'
 * values. The source is joined with the target's rows of the base snapshot (a left join keeping
 * every source row, a full join when target rows without a match may be deleted); the planner reads
 * only the target columns the condition and expressions name. A self-merge joins nothing. The join
 * is planned once, with the raw expressions ({@link #rawQuery}), whose types are checked against
 * the target columns; {@link #query} then casts every value of that planned query (a view) to its
 * column's type.
 */
final class MergeSql {

    private static final String SOURCE_ROW = "__dovetail_source_row";
    private static final String ACTION = "__dovetail_action";

    private final MergeSpec spec;
    private final TableSchema target;
    private final MergeClauses clauses;
    private final String fromClause;
    private final String sourceFromClause;

    /**
     * The SQL of {@code spec} into {@code target} (referenced in SQL as {@code targetReference},
     * pinned to its base snapshot) from {@code sourceReference}.
     */
    MergeSql(
            MergeSpec spec,
            TableSchema target,
            MergeClauses clauses,
            String sourceReference,
            String targetReference) {
        this.spec = spec;
        this.target = target;
        this.clauses = clauses;
        String source = SqlFragments.quote(spec.sourceAlias());
        this.sourceFromClause = sourceReference + " AS " + source;
        if (clauses.selfMergeRowId() != null) {
            this.fromClause = sourceFromClause;
        } else {
            String join =
                    spec.notMatchedBySourceDeleteCondition() != null ? "FULL JOIN" : "LEFT JOIN";
            this.fromClause =
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
    }

    /**
     * The source rows of a broadcast key join on {@code keys}, in the layout {@link
     * MergeSink#buildBroadcastKeyJoin} takes: the keys as the target columns' types, the action,
     * the new values cast like {@link #query}'s (given the raw query's schema).
     */
    String keyJoinQuery(List<MergeStrategy.KeyPair> keys, ResolvedSchema raw) {
        StringBuilder inner = new StringBuilder("SELECT ");
        StringBuilder outer = new StringBuilder("SELECT ");
        String source = SqlFragments.quote(spec.sourceAlias());
        for (int k = 0; k < keys.size(); k++) {
            MergeStrategy.KeyPair pair = keys.get(k);
            inner.append(source).append('.').append(SqlFragments.quote(pair.sourceColumn()));
            inner.append(" AS `k").append(k).append("`, ");
            outer.append("CAST(`k").append(k).append("` AS ");
            outer.append(columnType(pair.targetColumn()).copy(true).asSerializableString());
            outer.append("), ");
        }
        inner.append('(').append(matchedAction()).append(") AS ").append(ACTION);
        outer.append("CAST(").append(ACTION).append(" AS TINYINT)");
        List<LogicalType> types = types(raw);
        int u = 0;
        for (Map.Entry<String, String> update : clauses.updates().entrySet()) {
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
        for (String expression : clauses.updates().values()) {
            select.append(", ").append(expression).append(" AS `u").append(i++).append('`');
        }
        if (clauses.inserts() != null) {
            i = 0;
            for (String expression : clauses.inserts().values()) {
                select.append(", ").append(expression).append(" AS `i").append(i++).append('`');
            }
        }
        select.append(" FROM ").append(fromClause);
        if (spec.notMatchedBySourceDeleteCondition() != null && clauses.selfMergeRowId() == null) {
            select.append(" WHERE ").append(actionExpression()).append(" IS NOT NULL");
        }
        return select.toString();
    }

    /**
     * The query in {@link MergeSink}'s layout over {@code rawView}, the planned {@link #rawQuery}
     * of schema {@code raw}: each value checked against and cast to its target column's type.
     */
    String query(String rawView, ResolvedSchema raw) {
        List<LogicalType> types = types(raw);
        StringBuilder select = new StringBuilder("SELECT CAST(`_ROW_ID` AS BIGINT), ");
        select.append("CAST(").append(ACTION).append(" AS TINYINT)");
        int i = 2;
        int u = 0;
        for (String column : clauses.updates().keySet()) {
            select.append(", ")
                    .append(cast("u" + u++, types.get(i++), column, "matched_update_set"));
        }
        if (clauses.inserts() != null) {
            int n = 0;
            for (String column : clauses.inserts().keySet()) {
                select.append(", ")
                        .append(
                                cast(
                                        "i" + n++,
                                        types.get(i++),
                                        column,
                                        "not_matched_insert_values"));
            }
        }
        return select.append(" FROM ").append(SqlFragments.quote(rawView)).toString();
    }

    private static List<LogicalType> types(ResolvedSchema raw) {
        return raw.getColumnDataTypes().stream().map(t -> t.getLogicalType()).toList();
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
        if (clauses.selfMergeRowId() != null) {
            return "CAST("
                    + SqlFragments.quote(spec.sourceAlias())
                    + "."
                    + clauses.selfMergeRowId()
                    + " AS BIGINT)";
        }
        return SqlFragments.quote(spec.targetAlias()) + ".`_ROW_ID`";
    }

    /** The action of a matched row: deleted if the delete condition holds, else updated. */
    private String matchedAction() {
        return "CASE WHEN "
                + condition(spec.matchedDeleteCondition())
                + " THEN "
                + MergeContract.DELETE
                + " ELSE "
                + (clauses.updates().isEmpty()
                        ? MergeContract.MATCHED_NO_ACTION
                        : MergeContract.UPDATE)
                + " END";
    }

    private String actionExpression() {
        String matched = matchedAction();
        if (clauses.selfMergeRowId() != null) {
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
                                + MergeContract.DELETE_NOT_MATCHED_BY_SOURCE
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
                + (clauses.inserts() != null
                        ? MergeContract.INSERT
                        : MergeContract.NOT_MATCHED_NO_ACTION)
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
}
