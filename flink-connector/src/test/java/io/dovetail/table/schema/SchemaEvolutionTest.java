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
package io.dovetail.table.schema;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.DovetailException.Kind;
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.dovetail.table.schema.SchemaChange.addColumn;
import static io.dovetail.table.schema.SchemaChange.dropColumn;
import static io.dovetail.table.schema.SchemaChange.moveColumn;
import static io.dovetail.table.schema.SchemaChange.removeOption;
import static io.dovetail.table.schema.SchemaChange.renameColumn;
import static io.dovetail.table.schema.SchemaChange.setOption;
import static io.dovetail.table.schema.SchemaChange.updateColumnComment;
import static io.dovetail.table.schema.SchemaChange.updateColumnNullability;
import static io.dovetail.table.schema.SchemaChange.updateColumnType;
import static io.dovetail.table.schema.SchemaChange.updateComment;
import static io.dovetail.table.types.DataTypes.ARRAY;
import static io.dovetail.table.types.DataTypes.BIGINT;
import static io.dovetail.table.types.DataTypes.BLOB;
import static io.dovetail.table.types.DataTypes.DATE;
import static io.dovetail.table.types.DataTypes.DECIMAL;
import static io.dovetail.table.types.DataTypes.DOUBLE;
import static io.dovetail.table.types.DataTypes.INT;
import static io.dovetail.table.types.DataTypes.MAP;
import static io.dovetail.table.types.DataTypes.ROW;
import static io.dovetail.table.types.DataTypes.STRING;
import static io.dovetail.table.types.DataTypes.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaEvolutionTest {

    static final Map<String, String> DE_OPTIONS =
            Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true");

    static DataField field(String name, DataType type) {
        return new DataField(0, name, type);
    }

    /** id=0, name=1, score=2, info=3 (a=4, b=5), dt=6 (partition key); highestFieldId 6. */
    static TableSchema base(Map<String, String> options) {
        return TableSchema.initial(
                FieldIds.assignFresh(
                        List.of(
                                field("id", BIGINT().withNullable(false)),
                                field("name", STRING()),
                                field("score", DOUBLE()),
                                field("info", ROW(field("a", INT()), field("b", STRING()))),
                                field("dt", STRING())),
                        -1),
                List.of("dt"),
                List.of(),
                options,
                null,
                1000);
    }

    static TableSchema base() {
        return base(DE_OPTIONS);
    }

    private static TableSchema apply(TableSchema schema, SchemaChange... changes) {
        return SchemaEvolution.apply(schema, List.of(changes), 2000);
    }

    private static void assertRefused(TableSchema schema, SchemaChange change, String... parts) {
        assertThatThrownBy(() -> apply(schema, change))
                .isInstanceOf(DovetailException.class)
                .satisfies(
                        e -> {
                            for (String part : parts) {
                                assertThat(e).hasMessageContaining(part);
                            }
                        });
    }

    /**
     * base() plus tags ARRAY<ROW<x INT>> (id 7, x=8) and attrs MAP<STRING, ROW
     *
     * <p INT>> (9, p=10).
     */
    private static TableSchema withCollections() {
        return apply(
                base(),
                addColumn("tags", ARRAY(ROW(field("x", INT())))),
                addColumn("attrs", MAP(STRING(), ROW(field("p", INT())))));
    }

    private static RowType rowOf(TableSchema schema, String column) {
        return (RowType) schema.field(column).orElseThrow().type();
    }

    @Test
    void nestedFieldsAreAddedDroppedRenamedAndRetypedById() {
        TableSchema next =
                apply(
                        base(),
                        addColumn(List.of("info", "c"), BIGINT(), "new", ColumnPosition.first()),
                        renameColumn(List.of("info", "a"), "a2"),
                        updateColumnType(List.of("info", "a2"), BIGINT()),
                        dropColumn(List.of("info", "b")),
                        updateColumnComment(List.of("info", "a2"), "widened"));
        RowType info = rowOf(next, "info");
        assertThat(info.fields())
                .containsExactly(
                        new DataField(7, "c", BIGINT(), "new", null),
                        new DataField(4, "a2", BIGINT(), "widened", null));
        assertThat(next.highestFieldId()).isEqualTo(7);
        assertThat(next.field("info").orElseThrow().id()).isEqualTo(3);
    }

    @Test
    void arrayElementsAndMapValuesAreAddressedByElementAndValue() {
        TableSchema next =
                apply(
                        withCollections(),
                        addColumn(
                                List.of("tags", "element", "y"),
                                STRING(),
                                null,
                                ColumnPosition.last()),
                        updateColumnType(List.of("tags", "element", "x"), BIGINT()),
                        addColumn(
                                List.of("attrs", "value", "q"),
                                DOUBLE(),
                                null,
                                ColumnPosition.last()),
                        updateColumnNullability(List.of("attrs", "value", "p"), true));
        ArrayType tags = (ArrayType) next.field("tags").orElseThrow().type();
        assertThat(((RowType) tags.element()).fields())
                .containsExactly(new DataField(8, "x", BIGINT()), new DataField(11, "y", STRING()));
        MapType attrs = (MapType) next.field("attrs").orElseThrow().type();
        assertThat(((RowType) attrs.value()).fields())
                .containsExactly(new DataField(10, "p", INT()), new DataField(12, "q", DOUBLE()));
        assertThat(next.highestFieldId()).isEqualTo(12);
    }

    @Test
    void badNestedChangesAreRefusedClearly() {
        assertRefused(base(), dropColumn(List.of("info", "zz")), "'info.zz' does not exist");
        assertRefused(
                base(),
                addColumn(List.of("name", "x"), INT(), null, ColumnPosition.last()),
                "'name' is STRING",
                "no field 'x'");
        assertRefused(
                withCollections(),
                addColumn(List.of("tags", "x"), INT(), null, ColumnPosition.last()),
                "no field 'x'",
                "'element'");
        assertRefused(
                base(),
                addColumn(List.of("info", "a"), INT(), null, ColumnPosition.last()),
                "'info.a': it exists");
        assertRefused(
                apply(base(), dropColumn(List.of("info", "b"))),
                dropColumn(List.of("info", "a")),
                "only field of its ROW");
        assertRefused(
                base(), renameColumn(List.of("info", "a"), "b"), "a column with that name exists");
        assertRefused(
                base(),
                updateColumnType(List.of("info", "a"), DATE()),
                "'info.a' from INT to DATE");
        assertRefused(
                base(), updateColumnNullability(List.of("info", "a"), false), "'info.a' NOT NULL");
        assertRefused(
                base(),
                addColumn(
                        List.of("info", "n"),
                        INT().withNullable(false),
                        null,
                        ColumnPosition.last()),
                "'info.n'",
                "must be nullable");
    }

    @Test
    void resultIsTheNextVersionWithNewTime() {
        TableSchema next = apply(base(), updateComment("hello"));
        assertThat(next.id()).isEqualTo(1);
        assertThat(next.timeMillis()).isEqualTo(2000);
        assertThat(next.comment()).isEqualTo("hello");
        assertThat(next.fields()).isEqualTo(base().fields());
        assertThat(apply(next, updateComment(null)).comment()).isNull();
    }

    @Test
    void setAndRemoveOptions() {
        TableSchema next = apply(base(), setOption("file.format", "orc"), setOption("x", "1"));
        assertThat(next.options())
                .containsEntry("file.format", "orc")
                .containsEntry("x", "1")
                .containsAllEntriesOf(DE_OPTIONS);
        TableSchema removed = apply(next, removeOption("x"), removeOption("never-set"));
        assertThat(removed.options()).doesNotContainKey("x").containsEntry("file.format", "orc");
    }

    @Test
    void immutableOptionsAreRefused() {
        assertRefused(
                base(),
                setOption("data-evolution.enabled", "false"),
                "Option 'data-evolution.enabled' cannot be changed after the table is created",
                "it is 'true', requested 'false'");
        assertRefused(
                base(), removeOption("row-tracking.enabled"), "'row-tracking.enabled'", "unset");
        assertRefused(base(), setOption("bucket", "4"), "Option 'bucket' cannot be changed");
        assertRefused(base(), setOption("bucket", "-1"), "Option 'bucket' cannot be changed");
        assertRefused(base(), setOption("primary-key", "id"), "Option 'primary-key'");
        assertRefused(base(), setOption("partition", "name"), "Option 'partition'");
        assertRefused(base(), setOption("blob-field", "name"), "Option 'blob-field'");
        // setting an immutable option to its current value changes nothing and is fine
        assertThat(apply(base(), setOption("row-tracking.enabled", "true")).options())
                .isEqualTo(base().options());
    }

    @Test
    void deletionVectorsChangeOnlyWhenModifiable() {
        assertRefused(
                base(),
                setOption("deletion-vectors.enabled", "true"),
                "unless 'deletion-vectors.modifiable' = 'true'");
        Map<String, String> withDv = new LinkedHashMap<>(DE_OPTIONS);
        withDv.put("deletion-vectors.enabled", "true");
        assertRefused(base(withDv), removeOption("deletion-vectors.enabled"), "it is 'true'");
        assertRefused(base(withDv), setOption("deletion-vectors.enabled", "false"), "modifiable");
        // same effective value: allowed
        assertThat(apply(base(), setOption("deletion-vectors.enabled", "false")).options())
                .containsEntry("deletion-vectors.enabled", "false");
        withDv.put("deletion-vectors.modifiable", "true");
        assertThat(apply(base(withDv), setOption("deletion-vectors.enabled", "false")).options())
                .containsEntry("deletion-vectors.enabled", "false");
    }

    @Test
    void addColumnAtEveryPositionWithFreshIds() {
        TableSchema next =
                apply(
                        base(),
                        addColumn("last", INT()),
                        addColumn("first", STRING(), "c1", ColumnPosition.first()),
                        addColumn(
                                "extra",
                                ROW(field("p", INT()), field("q", STRING())),
                                null,
                                ColumnPosition.after("name")));
        assertThat(next.fieldNames())
                .containsExactly("first", "id", "name", "extra", "score", "info", "dt", "last");
        assertThat(next.field("last").orElseThrow().id()).isEqualTo(7);
        assertThat(next.field("first").orElseThrow())
                .isEqualTo(new DataField(8, "first", STRING(), "c1", null));
        assertThat(next.field("extra").orElseThrow())
                .isEqualTo(
                        new DataField(
                                9,
                                "extra",
                                ROW(
                                        new DataField(10, "p", INT()),
                                        new DataField(11, "q", STRING()))));
        assertThat(next.highestFieldId()).isEqualTo(11);
    }

    @Test
    void addColumnRefusals() {
        assertRefused(base(), addColumn("name", INT()), "Cannot add column 'name': it exists");
        assertRefused(
                base(),
                addColumn("n", INT().withNullable(false)),
                "Cannot add column 'n' as INT NOT NULL",
                "must be nullable");
        assertRefused(
                base(),
                addColumn("n", INT(), null, ColumnPosition.after("ghost")),
                "Column 'ghost' named in AFTER does not exist");
        assertRefused(base(), addColumn("_ROW_ID", BIGINT()), "'_ROW_ID' is reserved");
        assertRefused(base(), addColumn("_SEQUENCE_NUMBER", BIGINT()), "reserved");
    }

    @Test
    void dropNeverReusesIdsNorLowersHighestFieldId() {
        TableSchema dropped = apply(base(), dropColumn("info"));
        assertThat(dropped.fieldNames()).containsExactly("id", "name", "score", "dt");
        assertThat(dropped.highestFieldId()).isEqualTo(6);
        TableSchema readded = apply(dropped, addColumn("info", INT()));
        assertThat(readded.field("info").orElseThrow().id()).isEqualTo(7);
        assertThat(readded.highestFieldId()).isEqualTo(7);
    }

    @Test
    void dropRefusals() {
        assertRefused(base(), dropColumn("dt"), "Partition column 'dt' cannot be dropped");
        assertRefused(base(), dropColumn("ghost"), "Column 'ghost' does not exist", "[id, name");
        TableSchema single =
                TableSchema.initial(
                        List.of(new DataField(0, "only", INT())),
                        List.of(),
                        List.of(),
                        DE_OPTIONS,
                        null,
                        0);
        assertRefused(single, dropColumn("only"), "it is the only column");
    }

    @Test
    void renameKeepsTheId() {
        TableSchema next = apply(base(), renameColumn("name", "title"));
        assertThat(next.field("title").orElseThrow().id()).isEqualTo(1);
        assertThat(next.field("name")).isEmpty();
        assertThat(apply(base(), renameColumn("name", "name")).fields()).isEqualTo(base().fields());
    }

    @Test
    void renameRefusals() {
        assertRefused(base(), renameColumn("name", "score"), "a column with that name exists");
        assertRefused(base(), renameColumn("dt", "day"), "Partition column 'dt' cannot be renamed");
        assertRefused(base(), renameColumn("name", "_ROW_ID"), "reserved");
        assertRefused(base(), renameColumn("ghost", "x"), "Column 'ghost' does not exist");
        TableSchema withBlob = apply(base(), addColumn("img", BLOB()));
        assertRefused(
                withBlob, renameColumn("img", "picture"), "BLOB column 'img' cannot be renamed");
    }

    @Test
    void moveColumns() {
        assertThat(apply(base(), moveColumn("dt", ColumnPosition.first())).fieldNames())
                .containsExactly("dt", "id", "name", "score", "info");
        assertThat(apply(base(), moveColumn("id", ColumnPosition.last())).fieldNames())
                .containsExactly("name", "score", "info", "dt", "id");
        assertThat(apply(base(), moveColumn("id", ColumnPosition.after("score"))).fieldNames())
                .containsExactly("name", "score", "id", "info", "dt");
        assertThat(apply(base(), moveColumn("dt", ColumnPosition.after("id"))).fieldNames())
                .containsExactly("id", "dt", "name", "score", "info");
        assertRefused(base(), moveColumn("id", ColumnPosition.after("id")), "after itself");
        assertRefused(
                base(), moveColumn("id", ColumnPosition.after("ghost")), "'ghost' named in AFTER");
    }

    @Test
    void typeChangesFollowTheMatrixAndKeepIds() {
        TableSchema next =
                apply(
                        base(),
                        updateColumnType("score", DECIMAL(12, 3)),
                        updateColumnType("name", VARCHAR(20)));
        assertThat(next.field("score").orElseThrow())
                .isEqualTo(new DataField(2, "score", DECIMAL(12, 3)));
        assertThat(next.field("name").orElseThrow().type()).isEqualTo(VARCHAR(20));
        // NOT NULL -> nullable through a type change is allowed
        assertThat(apply(base(), updateColumnType("id", STRING())).field("id").orElseThrow().type())
                .isEqualTo(STRING());
    }

    @Test
    void typeChangeRefusals() {
        assertRefused(
                base(),
                updateColumnType("score", DATE()),
                "Cannot change the type of column 'score' from DOUBLE to DATE");
        assertRefused(
                base(), updateColumnType("info", STRING()), "from ROW<a INT, b STRING> to STRING");
        assertRefused(
                base(),
                updateColumnType("dt", INT()),
                "Partition column 'dt' cannot be given a new type");
        assertRefused(
                base(),
                updateColumnType("name", STRING().withNullable(false)),
                "Cannot make column 'name' NOT NULL");
    }

    @Test
    void nullabilityOnlyRelaxes() {
        TableSchema next = apply(base(), updateColumnNullability("id", true));
        assertThat(next.field("id").orElseThrow().type()).isEqualTo(BIGINT());
        assertRefused(
                base(),
                updateColumnNullability("name", false),
                "Cannot make column 'name' NOT NULL");
        // already nullable: no change
        assertThat(apply(base(), updateColumnNullability("name", true)).fields())
                .isEqualTo(base().fields());
        TableSchema notNullPartition =
                TableSchema.initial(
                        List.of(
                                new DataField(0, "a", INT()),
                                new DataField(1, "p", INT().withNullable(false))),
                        List.of("p"),
                        List.of(),
                        DE_OPTIONS,
                        null,
                        0);
        assertRefused(
                notNullPartition,
                updateColumnNullability("p", true),
                "Partition column 'p' cannot be made nullable");
    }

    @Test
    void columnComments() {
        TableSchema next = apply(base(), updateColumnComment("name", "who"));
        assertThat(next.field("name").orElseThrow().description()).isEqualTo("who");
        assertThat(
                        apply(next, updateColumnComment("name", null))
                                .field("name")
                                .orElseThrow()
                                .description())
                .isNull();
        assertRefused(base(), updateColumnComment("ghost", "x"), "Column 'ghost' does not exist");
    }

    @Test
    void aFailingChangeInAListAppliesNothingAndKindsAreRight() {
        TableSchema schema = base();
        assertThatThrownBy(() -> apply(schema, addColumn("x", INT()), dropColumn("ghost")))
                .isInstanceOfSatisfying(
                        DovetailException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_ARGUMENT));
        assertThatThrownBy(() -> apply(schema, setOption("bucket", "2")))
                .isInstanceOfSatisfying(
                        DovetailException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_SCHEMA));
        assertThat(schema).isEqualTo(base());
    }

    @Test
    void resultIsValidatedAsADataEvolutionTable() {
        assertRefused(
                base(), setOption("clustering.incremental", "true"), "clustering.incremental");
        TableSchema withBlob = apply(base(), addColumn("img", BLOB()));
        assertThat(withBlob.field("img")).isPresent();
    }
}
