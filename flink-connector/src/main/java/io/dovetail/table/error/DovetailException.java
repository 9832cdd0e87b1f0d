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
package io.dovetail.table.error;

/**
 * The one exception type for problems a user can cause or meet: corrupt or missing metadata,
 * invalid layouts, bad arguments, incompatible schema changes, conflicting commits. Create it
 * through {@link Errors} so every message says what happened, why, and what to do.
 */
public class DovetailException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Broad category, for callers that react differently (retry a conflict, report corruption). */
    public enum Kind {
        CORRUPT_METADATA,
        MISSING_FILE,
        UNSUPPORTED,
        INVALID_ARGUMENT,
        INVALID_SCHEMA,
        INVALID_LAYOUT,
        CONFLICT,
        REFUSED_BY_OPTION,
        IO,
        /** A _ROW_ID in no live row range of the base snapshot. */
        STALE_ROW_ID,
        /** Two changes of one row in one write (a merge source matching a row twice). */
        DUPLICATE_MATCH,
        /** A snapshot that was never committed or no longer exists. */
        NO_SUCH_SNAPSHOT,
        /** A snapshot that snapshot expiry removed before a read got to it. */
        EXPIRED_SNAPSHOT,
        /**
         * A merge source larger than a broadcast key join may hold ({@link
         * SourceTooLargeToBroadcast}).
         */
        SOURCE_TOO_LARGE
    }

    private final Kind kind;

    DovetailException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
