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
package io.dovetail.flink.sink;

/**
 * Metric names of the write path, registered on the writer and committer operators' metric groups.
 * Records and bytes use Flink's standard sink names.
 */
public final class SinkMetrics {

    public static final String RECORDS_WRITTEN = "numRecordsSend";
    public static final String BYTES_WRITTEN = "numBytesSend";
    public static final String FILES_WRITTEN = "numFilesWritten";
    public static final String SNAPSHOTS_COMMITTED = "numSnapshotsCommitted";
    public static final String FILES_COMMITTED = "numFilesCommitted";
    public static final String LAST_COMMIT_DURATION = "lastCommitDurationMs";
    public static final String LAST_COMMITTED_SNAPSHOT = "lastCommittedSnapshotId";
    public static final String ROWS_DELETED = "numRowsDeleted";
    public static final String ROWS_UPDATED = "numRowsUpdated";

    private SinkMetrics() {}
}
