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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight committers race on a local table for {@code dovetail.concurrency.seconds} (default 20;
 * longer runs soak); the table must match the model of {@link CommitRace}.
 */
class ConcurrentCommitTest {

    private static final long MILLIS = Long.getLong("dovetail.concurrency.seconds", 20) * 1000;

    @TempDir java.nio.file.Path dir;

    @Test
    void racingCommittersMatchTheModel() throws Exception {
        new CommitRace(new TestTable(dir, true)).runAndVerify(8, MILLIS);
    }
}
