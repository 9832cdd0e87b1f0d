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

import java.util.Locale;

/**
 * What a changelog read emits of each snapshot ({@link ChangePlanner}).
 *
 * <table>
 *   <caption>Change rows per snapshot</caption>
 *   <tr><th>Snapshot</th><th>{@link #INSERT_ONLY}</th><th>{@link #FULL}</th></tr>
 *   <tr><td>append (new row ids)</td><td>{@code +I}</td><td>{@code +I}</td></tr>
 *   <tr><td>partial-column update</td><td>nothing</td><td>{@code -U}/{@code +U}</td></tr>
 *   <tr><td>deletion vectors</td><td>nothing</td><td>{@code -D}</td></tr>
 *   <tr><td>overwrite</td><td>{@code +I} of the added rows when overwrites are read, else
 *       nothing</td><td>{@code -D} removed, {@code +I} added</td></tr>
 *   <tr><td>compaction (row ids kept)</td><td>nothing</td><td>nothing</td></tr>
 *   <tr><td>materialization (new row ids)</td><td>nothing</td><td>{@code -D} old id, {@code +I}
 *       new id of every survivor</td></tr>
 * </table>
 */
public enum ChangelogScope {
    /** The rows a snapshot appended (row ids it assigned), as inserts. */
    INSERT_ONLY,
    /** Every row a snapshot changed, as whole rows before and after. */
    FULL;

    /** The option value: {@code insert-only} or {@code full}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
