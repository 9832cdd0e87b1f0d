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
package io.dovetail.table.predicate;

import io.dovetail.table.error.Errors;
import io.dovetail.table.stats.ValueOrder;
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A row filter over the columns of a read schema, independent of any engine. Columns are {@link
 * DataField}s of the read schema (matched by field id); literals are Flink internal values of the
 * column's type ({@code StringData}, {@code DecimalData}, {@code TimestampData}, {@code Integer}
 * days for DATE, ...). Evaluation follows SQL's three-valued logic: a comparison with NULL is
 * UNKNOWN, and a row passes only when the filter is TRUE.
 *
 * <p>Readers use a filter to skip data that provably holds no passing row ({@link BoundsCheck});
 * they do not filter rows, so the engine still applies its own filter to what is read.
 */
public sealed interface Predicate {

    /** The columns the predicate references. */
    Set<DataField> fields();

    /** A comparison operator. */
    enum Op {
        EQUAL("="),
        NOT_EQUAL("<>"),
        LESS_THAN("<"),
        LESS_OR_EQUAL("<="),
        GREATER_THAN(">"),
        GREATER_OR_EQUAL(">=");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        @Override
        public String toString() {
            return symbol;
        }
    }

    /** {@code field op literal}; the literal is never null (use {@link IsNull}). */
    record Compare(DataField field, Op op, Object literal) implements Predicate {
        public Compare {
            checkLiteral(field, literal);
        }

        @Override
        public Set<DataField> fields() {
            return Set.of(field);
        }

        @Override
        public String toString() {
            return field.name() + " " + op + " " + literal;
        }
    }

    /** {@code field IN (literals)}; a NULL among the literals makes a miss UNKNOWN. */
    record In(DataField field, List<Object> literals) implements Predicate {
        public In {
            if (literals.isEmpty()) {
                throw Errors.invalidArgument("IN on column " + field.name() + " needs values.");
            }
            literals = Collections.unmodifiableList(new ArrayList<>(literals));
            for (Object literal : literals) {
                if (literal != null) {
                    checkLiteral(field, literal);
                }
            }
        }

        @Override
        public Set<DataField> fields() {
            return Set.of(field);
        }

        @Override
        public String toString() {
            return field.name() + " IN " + literals;
        }
    }

    /** {@code field IS NULL}; any column type. */
    record IsNull(DataField field) implements Predicate {
        @Override
        public Set<DataField> fields() {
            return Set.of(field);
        }

        @Override
        public String toString() {
            return field.name() + " IS NULL";
        }
    }

    /** {@code field IS NOT NULL}; any column type. */
    record IsNotNull(DataField field) implements Predicate {
        @Override
        public Set<DataField> fields() {
            return Set.of(field);
        }

        @Override
        public String toString() {
            return field.name() + " IS NOT NULL";
        }
    }

    /** TRUE when every child is TRUE, FALSE when one is FALSE, else UNKNOWN. */
    record And(List<Predicate> children) implements Predicate {
        public And {
            children = checkChildren(children, "AND");
        }

        @Override
        public Set<DataField> fields() {
            return fieldsOf(children);
        }

        @Override
        public String toString() {
            return "("
                    + String.join(" AND ", children.stream().map(Object::toString).toList())
                    + ")";
        }
    }

    /** TRUE when one child is TRUE, FALSE when every child is FALSE, else UNKNOWN. */
    record Or(List<Predicate> children) implements Predicate {
        public Or {
            children = checkChildren(children, "OR");
        }

        @Override
        public Set<DataField> fields() {
            return fieldsOf(children);
        }

        @Override
        public String toString() {
            return "("
                    + String.join(" OR ", children.stream().map(Object::toString).toList())
                    + ")";
        }
    }

    /** TRUE when the child is FALSE, FALSE when it is TRUE, UNKNOWN when it is UNKNOWN. */
    record Not(Predicate child) implements Predicate {
        @Override
        public Set<DataField> fields() {
            return child.fields();
        }

        @Override
        public String toString() {
            return "NOT " + child;
        }
    }

    static Predicate equal(DataField field, Object literal) {
        return new Compare(field, Op.EQUAL, literal);
    }

    static Predicate notEqual(DataField field, Object literal) {
        return new Compare(field, Op.NOT_EQUAL, literal);
    }

    static Predicate lessThan(DataField field, Object literal) {
        return new Compare(field, Op.LESS_THAN, literal);
    }

    static Predicate lessOrEqual(DataField field, Object literal) {
        return new Compare(field, Op.LESS_OR_EQUAL, literal);
    }

    static Predicate greaterThan(DataField field, Object literal) {
        return new Compare(field, Op.GREATER_THAN, literal);
    }

    static Predicate greaterOrEqual(DataField field, Object literal) {
        return new Compare(field, Op.GREATER_OR_EQUAL, literal);
    }

    static Predicate in(DataField field, Object... literals) {
        return new In(field, Arrays.asList(literals));
    }

    static Predicate isNull(DataField field) {
        return new IsNull(field);
    }

    static Predicate isNotNull(DataField field) {
        return new IsNotNull(field);
    }

    static Predicate and(Predicate... children) {
        return new And(List.of(children));
    }

    static Predicate or(Predicate... children) {
        return new Or(List.of(children));
    }

    static Predicate not(Predicate child) {
        return new Not(child);
    }

    private static void checkLiteral(DataField field, Object literal) {
        if (!(field.type() instanceof AtomicType type)) {
            throw Errors.invalidArgument(
                    "Cannot compare column " + field + " with a value: only atomic types compare.");
        }
        Class<?> expected = ValueOrder.valueClass(FlinkTypes.toFlink(type));
        if (!expected.isInstance(literal)) {
            throw Errors.invalidArgument(
                    "Value "
                            + literal
                            + (literal == null
                                    ? ""
                                    : " (" + literal.getClass().getSimpleName() + ")")
                            + " does not fit column "
                            + field
                            + ", whose values are "
                            + expected.getSimpleName()
                            + (literal == null ? "; compare with NULL through IS NULL." : "."));
        }
    }

    private static List<Predicate> checkChildren(List<Predicate> children, String operator) {
        if (children.isEmpty()) {
            throw Errors.invalidArgument(operator + " needs at least one operand.");
        }
        return List.copyOf(children);
    }

    private static Set<DataField> fieldsOf(List<Predicate> children) {
        Set<DataField> out = new LinkedHashSet<>();
        children.forEach(c -> out.addAll(c.fields()));
        return out;
    }
}
