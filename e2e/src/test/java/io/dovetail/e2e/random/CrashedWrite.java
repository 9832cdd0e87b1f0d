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

import java.util.List;

/**
 * A batch write (INSERT, UPDATE, merge) whose commit crashes just before or just after it publishes
 * its snapshot: the write runs in a session whose catalog reaches the warehouse through the
 * fault-injecting file system ({@code faulty://}) and lets Flink restart the job once. Either the
 * restart completes the write, applied exactly once, or the job fails with the injected crash and
 * the table holds the write exactly if its snapshot was published (see {@link SequenceRun}).
 */
final class CrashedWrite extends Op {

    final Op write;
    final boolean beforePublishing;

    CrashedWrite(Op write, boolean beforePublishing) {
        this.write = write;
        this.beforePublishing = beforePublishing;
    }

    @Override
    String kind() {
        return "crash";
    }

    @Override
    List<String> statements(ModelTable model) {
        return write.statements(model);
    }

    @Override
    boolean applicable(ModelTable model) {
        return !write.streaming() && write.applicable(model) && write.refusal(model) == null;
    }

    @Override
    public String toString() {
        return write.kind()
                + " whose commit crashes "
                + (beforePublishing ? "before" : "after")
                + " publishing its snapshot";
    }
}
