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
package io.dovetail.table.snapshot;

/** What a snapshot's commit did; stored as {@code commitKind} in the snapshot JSON. */
public enum CommitKind {
    /** Only new files were added (inserts, data-evolution partial-column updates, merge-into). */
    APPEND,
    /** Files were rewritten: adds and deletes of the same data. */
    COMPACT,
    /**
     * Files were removed and/or replaced (INSERT OVERWRITE, truncate, delete, manifest rewrite).
     */
    OVERWRITE,
    /** Statistics only. */
    ANALYZE
}
