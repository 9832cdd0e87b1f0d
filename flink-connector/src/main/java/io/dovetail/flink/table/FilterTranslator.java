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
package io.dovetail.flink.table;

import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Translates the filters Flink offers a scan into Dovetail {@link Predicate}s over the table's
 * columns and {@code _ROW_ID} / {@code _SEQUENCE_NUMBER}: comparisons of a column with a literal of
 * its type, IN, IS [NOT] NULL, bare BOOLEAN columns, AND, OR, NOT. A filter is translated exactly
 * or not at all (an inexact child under NOT would wrongly prune), except that the conjuncts of a
 * top-level AND are translated one by one.
 */
final class FilterTranslator {

    private final Map<String, DataField> columns = new HashMap<>();

    FilterTranslator(TableSchema schema) {
        schema.fields().forEach(f -> columns.put(f.name(), f));
        columns.put(SystemFields.ROW_ID.name(), SystemFields.ROW_ID);
        columns.put(SystemFields.SEQUENCE_NUMBER.name(), SystemFields.SEQUENCE_NUMBER);
    }

    /** The translatable conjuncts of {@code filters}. */
    List<Predicate> conjuncts(List<ResolvedExpression> filters) {
        List<Predicate> out = new ArrayList<>();
        for (ResolvedExpression filter : filters) {
            if (isCall(filter, BuiltInFunctionDefinitions.AND)) {
                out.addAll(conjuncts(filter.getResolvedChildren()));
            } else {
                translate(filter).ifPresent(out::add);
            }
        }
        return out;
    }

    Optional<Predicate> translate(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression ref) {
            return field(ref)
                    .filter(f -> FlinkTypes.toFlink(f.type()).is(LogicalTypeRoot.BOOLEAN))
                    .map(f -> Predicate.equal(f, true));
        }
        if (!(e instanceof CallExpression call)) {
            return Optional.empty();
        }
        FunctionDefinition function = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (function == BuiltInFunctionDefinitions.AND
                || function == BuiltInFunctionDefinitions.OR) {
            List<Predicate> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                Optional<Predicate> child = translate(arg);
                if (child.isEmpty()) {
                    return Optional.empty();
                }
                children.add(child.get());
            }
            return Optional.of(
                    function == BuiltInFunctionDefinitions.AND
                            ? new Predicate.And(children)
                            : new Predicate.Or(children));
        }
        if (function == BuiltInFunctionDefinitions.NOT) {
            return translate(args.get(0)).map(Predicate::not);
        }
        if (function == BuiltInFunctionDefinitions.IS_NULL) {
            return fieldArg(args.get(0)).map(Predicate::isNull);
        }
        if (function == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            return fieldArg(args.get(0)).map(Predicate::isNotNull);
        }
        if (function == BuiltInFunctionDefinitions.IN) {
            return in(args);
        }
        Predicate.Op op = comparison(function);
        return op == null ? Optional.empty() : compare(op, args.get(0), args.get(1));
    }

    private Optional<Predicate> compare(
            Predicate.Op op, ResolvedExpression left, ResolvedExpression right) {
        if (right instanceof FieldReferenceExpression && left instanceof ValueLiteralExpression) {
            return compare(flip(op), right, left);
        }
        Optional<DataField> field = fieldArg(left);
        if (field.isEmpty() || !(right instanceof ValueLiteralExpression literal)) {
            return Optional.empty();
        }
        return FlinkLiterals.toInternal(literal, FlinkTypes.toFlink(field.get().type()))
                .map(value -> new Predicate.Compare(field.get(), op, value));
    }

    private Optional<Predicate> in(List<ResolvedExpression> args) {
        Optional<DataField> field = fieldArg(args.get(0));
        if (field.isEmpty()) {
            return Optional.empty();
        }
        List<Object> values = new ArrayList<>();
        for (ResolvedExpression arg : args.subList(1, args.size())) {
            if (!(arg instanceof ValueLiteralExpression literal)) {
                return Optional.empty();
            }
            if (literal.isNull()) {
                values.add(null);
                continue;
            }
            Optional<Object> value =
                    FlinkLiterals.toInternal(literal, FlinkTypes.toFlink(field.get().type()));
            if (value.isEmpty()) {
                return Optional.empty();
            }
            values.add(value.get());
        }
        return Optional.of(new Predicate.In(field.get(), values));
    }

    private Optional<DataField> fieldArg(ResolvedExpression e) {
        return e instanceof FieldReferenceExpression ref ? field(ref) : Optional.empty();
    }

    private Optional<DataField> field(FieldReferenceExpression ref) {
        return Optional.ofNullable(columns.get(ref.getName()));
    }

    private static boolean isCall(ResolvedExpression e, FunctionDefinition function) {
        return e instanceof CallExpression call && call.getFunctionDefinition() == function;
    }

    @Nullable
    private static Predicate.Op comparison(FunctionDefinition function) {
        if (function == BuiltInFunctionDefinitions.EQUALS) {
            return Predicate.Op.EQUAL;
        } else if (function == BuiltInFunctionDefinitions.NOT_EQUALS) {
            return Predicate.Op.NOT_EQUAL;
        } else if (function == BuiltInFunctionDefinitions.LESS_THAN) {
            return Predicate.Op.LESS_THAN;
        } else if (function == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
            return Predicate.Op.LESS_OR_EQUAL;
        } else if (function == BuiltInFunctionDefinitions.GREATER_THAN) {
            return Predicate.Op.GREATER_THAN;
        } else if (function == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
            return Predicate.Op.GREATER_OR_EQUAL;
        }
        return null;
    }

    /** The operator with its operands swapped: {@code 5 < x} is {@code x > 5}. */
    private static Predicate.Op flip(Predicate.Op op) {
        switch (op) {
            case LESS_THAN:
                return Predicate.Op.GREATER_THAN;
            case LESS_OR_EQUAL:
                return Predicate.Op.GREATER_OR_EQUAL;
            case GREATER_THAN:
                return Predicate.Op.LESS_THAN;
            case GREATER_OR_EQUAL:
                return Predicate.Op.LESS_OR_EQUAL;
            default:
                return op;
        }
    }
}
