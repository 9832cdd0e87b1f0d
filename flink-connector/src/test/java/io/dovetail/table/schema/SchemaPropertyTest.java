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

import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.MultisetType;
import io.dovetail.table.types.RowType;
import io.dovetail.table.types.TypeRoot;
import io.dovetail.table.types.VectorType;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Random schemas over every type kind round-trip exactly; evolution keeps id invariants. */
class SchemaPropertyTest {

    private static final String FILE = "/prop/schema/schema-0";
    private static final String NAME_CHARS = "abcXYZ_09 \"'\\/é✓\t";

    @Property(tries = 300)
    void randomSchemasRoundTripExactly(@ForAll("schemas") TableSchema schema) {
        byte[] bytes = TableSchemaJson.toBytes(schema);
        TableSchema read = TableSchemaJson.fromBytes(bytes, FILE);
        assertThat(read).isEqualTo(schema);
        assertThat(TableSchemaJson.toBytes(read)).isEqualTo(bytes);
    }

    @Property(tries = 300)
    void freshIdsAreUniqueAndHighestIsTheLastOne(@ForAll("schemas") TableSchema schema) {
        List<DataField> fresh = FieldIds.assignFresh(schema.fields(), -1);
        List<Integer> ids = FieldIds.all(fresh);
        assertThat(ids).hasSize(FieldIds.all(schema.fields()).size());
        for (int i = 0; i < ids.size(); i++) {
            assertThat(ids.get(i)).isEqualTo(i);
        }
        assertThat(
                        TableSchema.initial(fresh, List.of(), List.of(), Map.of(), null, 0)
                                .highestFieldId())
                .isEqualTo(ids.size() - 1);
    }

    @Property(tries = 200)
    void evolutionNeverReusesIdsNorLowersHighestFieldId(@ForAll("changeSeeds") long seed) {
        Random random = new Random(seed);
        TableSchema schema = SchemaEvolutionTest.base();
        Set<Integer> everAssigned = new HashSet<>(FieldIds.all(schema.fields()));
        for (int step = 0; step < 12; step++) {
            SchemaChange change = randomChange(random, schema);
            TableSchema next;
            try {
                next = SchemaEvolution.apply(schema, List.of(change), step);
            } catch (io.dovetail.table.error.DovetailException refused) {
                continue;
            }
            assertThat(next.id()).isEqualTo(schema.id() + 1);
            assertThat(next.highestFieldId()).isGreaterThanOrEqualTo(schema.highestFieldId());
            List<Integer> ids = FieldIds.all(next.fields());
            assertThat(new HashSet<>(ids)).hasSize(ids.size());
            for (int id : ids) {
                if (!FieldIds.all(schema.fields()).contains(id)) {
                    assertThat(everAssigned).doesNotContain(id);
                    assertThat(id).isGreaterThan(schema.highestFieldId());
                }
            }
            everAssigned.addAll(ids);
            assertThat(next.highestFieldId())
                    .isEqualTo(everAssigned.stream().max(Integer::compare).orElseThrow());
            schema = next;
        }
    }

    @Provide
    Arbitrary<Long> changeSeeds() {
        return Arbitraries.longs();
    }

    @Provide
    Arbitrary<TableSchema> schemas() {
        return Arbitraries.randomValue(SchemaPropertyTest::randomSchema);
    }

    private static SchemaChange randomChange(Random random, TableSchema schema) {
        List<String> names = schema.fieldNames();
        String existing = names.get(random.nextInt(names.size()));
        switch (random.nextInt(5)) {
            case 0:
                return SchemaChange.addColumn(
                        "n" + random.nextInt(20), randomType(random, 2).withNullable(true));
            case 1:
                return SchemaChange.dropColumn(existing);
            case 2:
                return SchemaChange.renameColumn(existing, "r" + random.nextInt(20));
            case 3:
                return SchemaChange.moveColumn(existing, ColumnPosition.first());
            default:
                return SchemaChange.updateColumnType(existing, randomAtomic(random));
        }
    }

    private static TableSchema randomSchema(Random random) {
        int columns = 1 + random.nextInt(6);
        List<DataField> fields =
                FieldIds.assignFresh(randomFields(random, columns, 3), random.nextInt(50) - 1);
        int highest = FieldIds.highest(fields) + random.nextInt(5);
        List<String> partitionKeys = new ArrayList<>();
        for (DataField field : fields) {
            if (random.nextInt(4) == 0) {
                partitionKeys.add(field.name());
            }
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            options.put(randomName(random) + i, randomName(random));
        }
        String comment = random.nextBoolean() ? null : randomName(random);
        return new TableSchema(
                random.nextInt(1000),
                fields,
                Math.max(highest, -1),
                partitionKeys,
                List.of(),
                options,
                comment,
                Math.abs(random.nextLong()));
    }

    private static List<DataField> randomFields(Random random, int count, int depth) {
        List<DataField> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        while (fields.size() < count) {
            String name = randomName(random);
            if (names.add(name)) {
                fields.add(
                        new DataField(
                                0,
                                name,
                                randomType(random, depth),
                                random.nextInt(3) == 0 ? randomName(random) : null,
                                random.nextInt(5) == 0 ? randomName(random) : null));
            }
        }
        return fields;
    }

    private static DataType randomType(Random random, int depth) {
        boolean nullable = random.nextBoolean();
        if (depth <= 0 || random.nextInt(3) > 0) {
            return randomAtomic(random).withNullable(nullable);
        }
        switch (random.nextInt(5)) {
            case 0:
                return new RowType(
                        nullable, randomFields(random, 1 + random.nextInt(3), depth - 1));
            case 1:
                return new ArrayType(nullable, randomType(random, depth - 1));
            case 2:
                return new MapType(
                        nullable, randomType(random, depth - 1), randomType(random, depth - 1));
            case 3:
                return new MultisetType(nullable, randomType(random, depth - 1));
            default:
                TypeRoot[] roots = {
                    TypeRoot.BOOLEAN,
                    TypeRoot.TINYINT,
                    TypeRoot.SMALLINT,
                    TypeRoot.INT,
                    TypeRoot.BIGINT,
                    TypeRoot.FLOAT,
                    TypeRoot.DOUBLE
                };
                AtomicType element =
                        new AtomicType(
                                roots[random.nextInt(roots.length)], 0, 0, random.nextBoolean());
                return new VectorType(nullable, element, 1 + random.nextInt(2048));
        }
    }

    private static AtomicType randomAtomic(Random random) {
        TypeRoot[] atomic =
                java.util.Arrays.stream(TypeRoot.values())
                        .filter(r -> !r.isComposite())
                        .toArray(TypeRoot[]::new);
        TypeRoot root = atomic[random.nextInt(atomic.length)];
        switch (root.parameter()) {
            case LENGTH:
                int length =
                        random.nextInt(4) == 0
                                ? AtomicType.MAX_LENGTH
                                : 1 + random.nextInt(100_000);
                return new AtomicType(root, length, 0, true);
            case PRECISION:
                return new AtomicType(
                        root, random.nextInt(AtomicType.MAX_TIME_PRECISION + 1), 0, true);
            case PRECISION_AND_SCALE:
                int precision = 1 + random.nextInt(AtomicType.MAX_DECIMAL_PRECISION);
                return new AtomicType(root, precision, random.nextInt(precision + 1), true);
            default:
                return new AtomicType(root, 0, 0, true);
        }
    }

    private static String randomName(Random random) {
        StringBuilder name = new StringBuilder();
        for (int i = 1 + random.nextInt(8); i > 0; i--) {
            name.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
        }
        return name.toString();
    }
}
