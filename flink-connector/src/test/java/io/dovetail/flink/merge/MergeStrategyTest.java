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
import io.dovetail.flink.merge.MergeStrategy.KeyPair;
import io.dovetail.flink.merge.MergeStrategy.Kind;
import io.dovetail.table.error.Errors;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;

import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.SerializedThrowable;

import org.junit.jupiter.api.Test;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge's strategy choice, without a cluster: a self-merge joins nothing; a merge that only
 * changes matched rows on equal keys of binary-equal types, from a catalog table estimated to fit,
 * is a broadcast key join; everything else is the SQL join.
 */
class MergeStrategyTest {

    private static final TableSchema TARGET =
            TableSchema.initial(
                    List.of(
                            new DataField(0, "id", DataTypes.BIGINT()),
                            new DataField(1, "p", DataTypes.STRING()),
                            new DataField(2, "caption", DataTypes.STRING()),
                            new DataField(3, "score", DataTypes.DOUBLE()),
                            new DataField(4, "code", DataTypes.INT())),
                    List.of(),
                    List.of(),
                    Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true"),
                    null,
                    0);

    private static final ResolvedSchema SOURCE =
            ResolvedSchema.of(
                    Column.physical("id", org.apache.flink.table.api.DataTypes.BIGINT()),
                    Column.physical("rid", org.apache.flink.table.api.DataTypes.BIGINT()),
                    Column.physical("p", org.apache.flink.table.api.DataTypes.VARCHAR(10)),
                    Column.physical("caption", org.apache.flink.table.api.DataTypes.STRING()),
                    Column.physical("score", org.apache.flink.table.api.DataTypes.DOUBLE()),
                    Column.physical("code", org.apache.flink.table.api.DataTypes.BIGINT()));

    private static final long LIMIT = 256L << 20;

    @Test
    void aConditionOnTheTargetsRowIdIsASelfMerge() {
        MergeStrategy strategy =
                choose(merge("t._ROW_ID = s.rid", "caption = s.caption", null), OptionalLong.of(1));
        assertThat(strategy.kind()).isEqualTo(Kind.SELF_MERGE);
        assertThat(strategy.keys()).isEmpty();
    }

    @Test
    void equalKeysFromASmallCatalogTableAreABroadcastKeyJoin() {
        MergeStrategy strategy =
                choose(merge("t.id = s.id", "caption = s.caption", null), OptionalLong.of(1_000));
        assertThat(strategy.kind()).isEqualTo(Kind.BROADCAST_KEY_JOIN);
        assertThat(strategy.keys()).containsExactly(new KeyPair("id", "id"));

        MergeStrategy twoKeys =
                choose(
                        merge("s.id = t.id AND t.p = s.p", null, "s.caption IS NULL"),
                        OptionalLong.of(1_000));
        assertThat(twoKeys.kind())
                .as("VARCHAR(10) equals STRING by bytes; deletes only")
                .isEqualTo(Kind.BROADCAST_KEY_JOIN);
        assertThat(twoKeys.keys()).containsExactly(new KeyPair("id", "id"), new KeyPair("p", "p"));
    }

    @Test
    void aSourceOverTheLimitOrOfUnknownSizeIsASqlJoin() {
        MergeSpec spec = merge("t.id = s.id", "caption = s.caption", null);
        // held row: keys BIGINT, action, caption STRING: 72 + 8 + 8 + (8 + 24) = 120 bytes
        long fitting = LIMIT / 120;
        assertThat(choose(spec, OptionalLong.of(fitting)).kind())
                .isEqualTo(Kind.BROADCAST_KEY_JOIN);
        assertThat(choose(spec, OptionalLong.of(fitting + 1)).kind()).isEqualTo(Kind.SQL_JOIN);
        assertThat(choose(spec, OptionalLong.empty()).kind())
                .as("a query, a view: not estimated")
                .isEqualTo(Kind.SQL_JOIN);
        assertThat(
                        MergeStrategy.choose(
                                        spec,
                                        TARGET,
                                        clauses(spec),
                                        SOURCE,
                                        true,
                                        OptionalLong.of(1),
                                        0)
                                .kind())
                .as("a limit of 0 turns the broadcast key join off")
                .isEqualTo(Kind.SQL_JOIN);
        assertThat(
                        MergeStrategy.choose(
                                        spec,
                                        TARGET,
                                        clauses(spec),
                                        SOURCE,
                                        false,
                                        OptionalLong.of(1),
                                        LIMIT)
                                .kind())
                .as("an empty target")
                .isEqualTo(Kind.SQL_JOIN);
    }

    @Test
    void mergesTheKeyJoinCannotRunAreASqlJoin() {
        Map<String, MergeSpec> notKeyJoins =
                Map.of(
                        "inserts",
                        merge("t.id = s.id", "caption = s.caption", null, "*", null),
                        "deletes target rows no source row matches",
                        merge("t.id = s.id", null, null, null, "t.code > 3"),
                        "a value reads the target",
                        merge("t.id = s.id", "caption = t.caption || s.caption", null),
                        "not an equality",
                        merge("t.id > s.id", "caption = s.caption", null),
                        "floating point keys: NaN and -0.0 compare unlike their bytes",
                        merge("t.score = s.score", "caption = s.caption", null),
                        "INT against BIGINT: different bytes",
                        merge("t.code = s.code", "caption = s.caption", null),
                        "a disjunction",
                        merge("t.id = s.id OR t.p = s.p", "caption = s.caption", null));
        notKeyJoins.forEach(
                (why, spec) ->
                        assertThat(choose(spec, OptionalLong.of(10)).kind())
                                .as(why)
                                .isEqualTo(Kind.SQL_JOIN));
    }

    @Test
    void theSizeModelEstimatesHeldRowsAndBudgetsWriters() {
        assertThat(
                        BroadcastBudget.rowBytes(
                                List.of(
                                        new BigIntType(),
                                        new TinyIntType(),
                                        VarCharType.STRING_TYPE)))
                .isEqualTo(120);
        assertThat(BroadcastBudget.fits(10, List.of(new BigIntType()), 800)).isTrue();
        assertThat(BroadcastBudget.fits(11, List.of(new BigIntType()), 800)).isFalse();
        assertThat(BroadcastBudget.writerBudget(100, 10_000, 2))
                .as("twice the limit")
                .isEqualTo(200);
        assertThat(BroadcastBudget.writerBudget(100, 1_000, 4))
                .as("at most half a slot's share of the heap")
                .isEqualTo(125);
    }

    @Test
    void aSourceTooLargeToBroadcastIsRecognizedAlsoSerialized() {
        RuntimeException failure =
                new SuppressRestartsException(Errors.sourceTooLargeToBroadcast(7, 900, 800));
        assertThat(MergeStrategy.outgrewBroadcast(new RuntimeException("job failed", failure)))
                .isTrue();
        assertThat(
                        MergeStrategy.outgrewBroadcast(
                                new RuntimeException(
                                        "job failed",
                                        new SerializedThrowable(
                                                Errors.sourceTooLargeToBroadcast(7, 900, 800)))))
                .isTrue();
        assertThat(
                        MergeStrategy.outgrewBroadcast(
                                new RuntimeException(
                                        "The merge source is too large for a broadcast key join")))
                .as("a message alone is not the type")
                .isFalse();
    }

    private static MergeStrategy choose(MergeSpec spec, OptionalLong sourceRows) {
        return MergeStrategy.choose(spec, TARGET, clauses(spec), SOURCE, true, sourceRows, LIMIT);
    }

    private static MergeClauses clauses(MergeSpec spec) {
        return MergeClauses.of(spec, TARGET, SOURCE.getColumnNames());
    }

    private static MergeSpec merge(
            String condition, @Nullable String updateSet, @Nullable String deleteCondition) {
        return merge(condition, updateSet, deleteCondition, null, null);
    }

    private static MergeSpec merge(
            String condition,
            @Nullable String updateSet,
            @Nullable String deleteCondition,
            @Nullable String insertValues,
            @Nullable String notMatchedBySourceDelete) {
        return new MergeSpec(
                "db.t",
                "db.s",
                List.of(),
                null,
                null,
                condition,
                updateSet,
                deleteCondition,
                insertValues,
                notMatchedBySourceDelete,
                StaleRowIds.ERROR,
                null);
    }
}
