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
package io.dovetail.table.read;

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.OrcFiles;
import io.dovetail.table.format.OrcSchemas;
import io.dovetail.table.types.DataField;

import org.apache.flink.orc.vector.AbstractOrcColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

import java.io.IOException;
import java.util.List;

/**
 * Reads some columns of one ORC data file with ORC's vectorized reader, its vectors seen through
 * flink-orc's adapters (no copy); its blocks are the stripes. Columns are selected by name from the
 * file's own schema and read with their stored ORC types, as Paimon does.
 *
 * <p>Skips seek ({@link RecordReader#seekToRow}): ORC reads no skipped stripe and, with a row
 * index, decodes only from the index entry before the target row.
 *
 * <p>ORC fills a batch up to the batch's capacity or the stripe's end, whichever comes first. To
 * read exactly the rows asked for, a read of fewer rows goes through a smaller batch over the same
 * column vectors.
 */
final class OrcColumnsReader implements FileColumnsReader {

    private final GroupFile file;
    private final Reader reader;
    private final RecordReader rows;
    private final VectorizedRowBatch batch;
    private final ColumnVector[] vectors;
    private final List<StripeInformation> stripes;
    private VectorizedRowBatch smallBatch;
    private int nextStripe;
    private long rowsLeftInStripe;
    private long rowsRead; // rows read or skipped, the position of the next row in the file

    OrcColumnsReader(GroupFile file, int batchSize) {
        this.file = file;
        this.reader = OrcFiles.open(file.path(), file.meta().fileSize());
        try {
            if (reader.getNumberOfRows() != file.meta().rowCount()) {
                throw Errors.corruptFile(
                        file.path(),
                        "it holds "
                                + reader.getNumberOfRows()
                                + " rows but its metadata records "
                                + file.meta().rowCount());
            }
            TypeDescription schema = requestedSchema(reader.getSchema());
            this.rows = reader.rows(reader.options().schema(schema));
            this.batch = schema.createRowBatch(batchSize);
            List<DataField> columns = file.columns();
            this.vectors = new ColumnVector[columns.size()];
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] =
                        AbstractOrcColumnVector.createFlinkVector(
                                batch.cols[i], OrcSchemas.vectorType(columns.get(i).type()));
            }
            this.stripes = reader.getStripes();
        } catch (IOException e) {
            closeQuietly();
            throw Errors.io("open the rows of ORC data file", file.path(), e);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /** The file's own types of the requested columns, as one struct in request order. */
    private TypeDescription requestedSchema(TypeDescription fileSchema) {
        List<String> names = fileSchema.getFieldNames();
        TypeDescription requested = TypeDescription.createStruct();
        for (DataField column : file.columns()) {
            int index = names.indexOf(column.name());
            if (index < 0) {
                throw Errors.corruptFile(
                        file.path(),
                        "its metadata says it holds column '"
                                + column.name()
                                + "' but the ORC schema has only "
                                + names);
            }
            requested.addField(column.name(), fileSchema.getChildren().get(index).clone());
        }
        return requested;
    }

    @Override
    public ColumnVector vector(int column) {
        return vectors[column];
    }

    @Override
    public long rowsLeftInBlock() {
        while (rowsLeftInStripe == 0) {
            if (nextStripe == stripes.size()) {
                throw Errors.corruptFile(file.path(), "it ends before its recorded row count");
            }
            rowsLeftInStripe = stripes.get(nextStripe++).getNumberOfRows();
        }
        return rowsLeftInStripe;
    }

    @Override
    public void read(int n) {
        VectorizedRowBatch target =
                n == Math.min(batch.getMaxSize(), rowsLeftInStripe) ? batch : smallBatch(n);
        try {
            rows.nextBatch(target);
        } catch (IOException | RuntimeException e) {
            throw Errors.corruptFile(file.path(), "cannot decode its ORC stripes", e);
        }
        if (target.size != n) {
            throw Errors.corruptFile(
                    file.path(), "ORC returned " + target.size + " rows where " + n + " remain");
        }
        rowsLeftInStripe -= n;
        rowsRead += n;
    }

    @Override
    public void skip(long n) {
        for (long left = n; left > 0; ) {
            long skipped = Math.min(left, rowsLeftInBlock());
            rowsLeftInStripe -= skipped;
            left -= skipped;
        }
        rowsRead += n;
        try {
            rows.seekToRow(rowsRead);
        } catch (IOException | RuntimeException e) {
            throw Errors.corruptFile(file.path(), "cannot seek to row " + rowsRead, e);
        }
    }

    /** A batch of capacity {@code n} sharing the column vectors of the full batch. */
    private VectorizedRowBatch smallBatch(int n) {
        if (smallBatch == null || smallBatch.getMaxSize() != n) {
            smallBatch = new VectorizedRowBatch(batch.numCols, n);
            smallBatch.cols = batch.cols;
        }
        return smallBatch;
    }

    @Override
    public void close() {
        try {
            rows.close();
            reader.close();
        } catch (IOException e) {
            throw Errors.io("close", file.path(), e);
        }
    }

    private void closeQuietly() {
        try {
            reader.close();
        } catch (IOException | RuntimeException ignored) {
            // already failing
        }
    }
}
