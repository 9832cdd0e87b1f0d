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
package io.dovetail.table.commit;

/**
 * Observes the steps of a commit attempt; tests inject failures by throwing from {@link #reached}.
 */
interface CommitHook {

    /** The steps of one attempt, in order. */
    enum Step {
        /** The request's data and index files are written; nothing of the attempt exists yet. */
        STARTED,
        /**
         * A column update's staged partial-column files that compaction moved are rewritten onto
         * the live ranges (reached only by attempts that rebase).
         */
        STAGED_FILES_REBASED,
        /** Conflict checks passed against the latest snapshot. */
        CHECKED,
        /** The new index manifest (and rewritten index files) are written. */
        INDEX_MANIFEST_WRITTEN,
        /** The delta manifest files are written. */
        MANIFESTS_WRITTEN,
        /** The base and delta manifest lists are written. */
        MANIFEST_LISTS_WRITTEN,
        /** About to publish the snapshot file. */
        SNAPSHOT_PUBLISHING,
        /** The snapshot file is published (the commit has landed). */
        SNAPSHOT_PUBLISHED
    }

    CommitHook NONE = step -> {};

    void reached(Step step);
}
