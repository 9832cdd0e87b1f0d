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
package io.dovetail.e2e.random;

import org.apache.flink.types.Row;

import java.util.List;

/** What an operation may ask of the table under test, besides running its statements. */
interface Probe {

    /** The table's name in the catalog's {@code default} database. */
    String table();

    /** A batch query's rows. */
    List<Row> query(String sql) throws Exception;

    /** The snapshot ids present, oldest first. */
    List<Long> snapshotIds() throws Exception;

    /** The rows the op's last statement returned (a procedure's result row). */
    List<Row> lastResult();
}
