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

import io.dovetail.flink.dml.StaleRowIds;

import org.apache.flink.table.api.ValidationException;

import javax.annotation.Nullable;

import java.util.List;

/**
 * The arguments of one merge into a data-evolution table, as {@code data_evolution_merge} (and
 * Paimon's {@code data_evolution_merge_into}) take them; blank optional strings count as absent.
 *
 * @param target the target table, {@code 'database.table'}
 * @param source a table name (of any catalog the merge's session knows, or a view that {@code
 *     sourceSqls} made), or a query
 * @param sourceSqls statements run first in the merge's own session (e.g. {@code CREATE TEMPORARY
 *     VIEW}), Paimon's {@code source_sqls}
 * @param matchedUpdateSet {@code col = expr, ...} or {@code *}; null for no update
 * @param matchedDeleteCondition matched rows for which it holds are deleted (tried before the
 *     update)
 * @param notMatchedInsertValues {@code col = expr, ...} or {@code *}; null for no insert
 * @param notMatchedBySourceDeleteCondition target rows without a match for which it holds are
 *     deleted
 */
public record MergeSpec(
        String target,
        String source,
        List<String> sourceSqls,
        String targetAlias,
        String sourceAlias,
        String mergeCondition,
        @Nullable String matchedUpdateSet,
        @Nullable String matchedDeleteCondition,
        @Nullable String notMatchedInsertValues,
        @Nullable String notMatchedBySourceDeleteCondition,
        StaleRowIds onStaleRowIds,
        @Nullable Integer parallelism) {

    public static final String DEFAULT_TARGET_ALIAS = "t";
    public static final String DEFAULT_SOURCE_ALIAS = "s";

    public MergeSpec {
        target = required("target", target);
        source = required("source", source);
        sourceSqls = List.copyOf(sourceSqls);
        targetAlias = orDefault(targetAlias, DEFAULT_TARGET_ALIAS);
        sourceAlias = orDefault(sourceAlias, DEFAULT_SOURCE_ALIAS);
        mergeCondition = required("merge_condition", mergeCondition);
        matchedUpdateSet = blankToNull(matchedUpdateSet);
        matchedDeleteCondition = blankToNull(matchedDeleteCondition);
        notMatchedInsertValues = blankToNull(notMatchedInsertValues);
        notMatchedBySourceDeleteCondition = blankToNull(notMatchedBySourceDeleteCondition);
        if (targetAlias.equalsIgnoreCase(sourceAlias)) {
            throw new ValidationException(
                    "target_alias and source_alias must differ, both are '" + targetAlias + "'.");
        }
        if (matchedUpdateSet == null
                && matchedDeleteCondition == null
                && notMatchedInsertValues == null
                && notMatchedBySourceDeleteCondition == null) {
            throw new ValidationException(
                    "A merge needs at least one of matched_update_set, matched_delete_condition,"
                            + " not_matched_insert_values, not_matched_by_source_delete_condition.");
        }
        if (parallelism != null && parallelism < 1) {
            throw new ValidationException(
                    "parallelism must be at least 1, got " + parallelism + ".");
        }
    }

    /** Whether the merge deletes rows (it then needs deletion vectors). */
    public boolean deletes() {
        return matchedDeleteCondition != null || notMatchedBySourceDeleteCondition != null;
    }

    private static String required(String argument, String value) {
        String given = blankToNull(value);
        if (given == null) {
            throw new ValidationException(argument + " is required.");
        }
        return given;
    }

    private static String orDefault(String value, String fallback) {
        String given = blankToNull(value);
        return given == null ? fallback : given;
    }

    @Nullable
    private static String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
