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
package io.dovetail.e2e.interop;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test rows held as plain Java values, convertible to Paimon and to Flink row objects. */
final class Rows {

    private Rows() {}

    /** One row: column name to a plain value (Long, String, Double, Boolean, BigDecimal ...). */
    static final class Row {
        final Map<String, Object> values = new LinkedHashMap<>();

        Row set(String column, Object value) {
            values.put(column, value);
            return this;
        }

        GenericRow paimon(List<String> columns) {
            GenericRow row = new GenericRow(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                row.setField(i, toPaimon(values.get(columns.get(i))));
            }
            return row;
        }

        GenericRowData flink(List<String> columns) {
            GenericRowData row = new GenericRowData(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                row.setField(i, toFlink(values.get(columns.get(i))));
            }
            return row;
        }
    }

    static Row row() {
        return new Row();
    }

    static Object toPaimon(Object v) {
        if (v instanceof String) {
            return BinaryString.fromString((String) v);
        }
        if (v instanceof BigDecimal) {
            BigDecimal d = (BigDecimal) v;
            return Decimal.fromBigDecimal(d, 10, d.scale());
        }
        if (v instanceof LocalDateTime) {
            return Timestamp.fromLocalDateTime((LocalDateTime) v);
        }
        return v;
    }

    static Object toFlink(Object v) {
        if (v instanceof String) {
            return StringData.fromString((String) v);
        }
        if (v instanceof BigDecimal) {
            BigDecimal d = (BigDecimal) v;
            return DecimalData.fromBigDecimal(d, 10, d.scale());
        }
        if (v instanceof LocalDateTime) {
            return TimestampData.fromLocalDateTime((LocalDateTime) v);
        }
        return v;
    }
}
