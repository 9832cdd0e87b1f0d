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
package io.dovetail.table.format.vector;

import org.apache.flink.table.data.columnar.vector.ColumnVector;

/**
 * Reads some VECTOR columns of one vector-store file, in file order, into reusable column vectors
 * (Flink {@code ArrayColumnVector}s) a caller-chosen number of rows at a time.
 */
public interface VectorFileReader extends AutoCloseable {

    /**
     * The vector of column {@code column} (of the columns asked for), refilled by {@link #read}.
     */
    ColumnVector vector(int column);

    /** Reads the next {@code rows} rows (at most the batch size, and no more than are left). */
    void read(int rows);

    /** Moves past the next {@code rows} rows. */
    void skip(long rows);

    @Override
    void close();
}
