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

import io.dovetail.table.error.DovetailException.Kind;

/**
 * The error factory: every user-visible failure of the table layer is built here, so messages share
 * one shape: what happened, where, and (when there is one) what to do.
 */
public final class Errors {

    private Errors() {}

    /** A metadata or index file exists but cannot be decoded, or decodes to impossible values. */
    public static DovetailException corruptFile(Object file, String problem) {
        return corruptFile(file, problem, null);
    }

    public static DovetailException corruptFile(Object file, String problem, Throwable cause) {
        return new DovetailException(
                Kind.CORRUPT_METADATA,
                "Corrupt or unreadable file "
                        + file
                        + ": "
                        + problem
                        + ". The table metadata is damaged or was written by an incompatible"
                        + " writer; nothing was changed.",
                cause);
    }

    /** A file that metadata refers to does not exist. */
    public static DovetailException missingFile(Object file, String referencedBy) {
        return new DovetailException(
                Kind.MISSING_FILE,
                "Missing file " + file + " (referenced by " + referencedBy + ").",
                null);
    }

    /** A valid input that Dovetail does not (yet) handle. */
    public static DovetailException unsupported(String what, String hint) {
        return new DovetailException(
                Kind.UNSUPPORTED,
                "Not supported: " + what + (hint == null || hint.isEmpty() ? "" : ". " + hint),
                null);
    }

    /** A wrong argument, option or value supplied by the caller. */
    public static DovetailException invalidArgument(String message) {
        return new DovetailException(Kind.INVALID_ARGUMENT, message, null);
    }

    /** An invalid table definition or an incompatible schema change. */
    public static DovetailException invalidSchema(String message) {
        return new DovetailException(Kind.INVALID_SCHEMA, message, null);
    }

    /** Table files whose row ranges or placement break the data-evolution layout contract. */
    public static DovetailException invalidLayout(String message) {
        return new DovetailException(Kind.INVALID_LAYOUT, message, null);
    }

    /** A commit that cannot be applied because a concurrent commit changed what it relies on. */
    public static DovetailException conflict(String message) {
        return new DovetailException(Kind.CONFLICT, message, null);
    }

    /** A valid write that a table option tells Dovetail to refuse. */
    public static DovetailException refusedByOption(String message) {
        return new DovetailException(Kind.REFUSED_BY_OPTION, message, null);
    }

    /** An I/O failure of the underlying file system. */
    public static DovetailException io(String action, Object file, Throwable cause) {
        return new DovetailException(
                Kind.IO, "I/O error while trying to " + action + " " + file + ": " + cause, cause);
    }
}
