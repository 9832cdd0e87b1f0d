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

import org.apache.flink.table.data.RowData;

import java.io.IOException;

/**
 * Writes one vector-store file: rows whose fields are the file's VECTOR columns, in order. Each
 * value is checked first ({@link VectorValues}); a failure leaves the file to the caller to delete.
 */
public interface VectorFileWriter extends AutoCloseable {

    /** Appends a row. */
    void write(RowData row) throws IOException;

    /** Rows written. */
    long count();

    /** Bytes written to the file system so far (for rolling; a block may be pending). */
    long length();

    /** Completes the file and returns its exact size in bytes. */
    long finish() throws IOException;

    /** Releases the file's stream without completing it (the caller deletes the file). */
    @Override
    void close();
}
