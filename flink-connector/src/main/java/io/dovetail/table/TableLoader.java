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
package io.dovetail.table;

import io.dovetail.table.path.TablePaths;

import org.apache.flink.core.fs.Path;

import java.io.Serializable;
import java.util.Objects;

/**
 * How a job reaches its table where it runs: the table's root directory as a string, small and
 * serializable for a job graph (an operator, a source, a partitioner holds one), opened on the task
 * manager with {@link #open()}. The one way operators load tables.
 */
public final class TableLoader implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String location;

    private TableLoader(String location) {
        this.location = Objects.requireNonNull(location, "table location");
    }

    /** The loader of the table at {@code paths}. */
    public static TableLoader of(TablePaths paths) {
        return new TableLoader(paths.root().toString());
    }

    /**
     * The loader of the table whose root directory is {@code location} (as {@link #location()}).
     */
    public static TableLoader at(String location) {
        return new TableLoader(location);
    }

    /**
     * Opens the table; a directory without schema files is a clear error ({@link TableStore#open}).
     */
    public TableStore open() {
        return TableStore.open(paths());
    }

    public TablePaths paths() {
        return new TablePaths(new Path(location));
    }

    /** The table's root directory, as it is written into state (a split, a committable). */
    public String location() {
        return location;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableLoader that && location.equals(that.location);
    }

    @Override
    public int hashCode() {
        return location.hashCode();
    }

    @Override
    public String toString() {
        return location;
    }
}
