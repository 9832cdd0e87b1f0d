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
package io.dovetail.table.write;

import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.RowData;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.util.List;
import java.util.Map;

/**
 * parquet-mr's bridge for Flink rows: the schema of {@link ParquetSchemas} and the values of {@link
 * ParquetValueWriters}. The footer gets no key/value metadata, as in Paimon's files.
 */
final class RowDataWriteSupport extends WriteSupport<RowData> {

    private final MessageType schema;
    private final ParquetValueWriters.FieldsWriter fields;
    private RecordConsumer consumer;

    RowDataWriteSupport(List<DataField> columns) {
        this.schema = ParquetSchemas.messageType(columns);
        this.fields = ParquetValueWriters.forColumns(columns);
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(schema, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(RowData row) {
        consumer.startMessage();
        fields.writeFields(consumer, row);
        consumer.endMessage();
    }
}
