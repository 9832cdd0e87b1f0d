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
package io.dovetail.table.fs;

import io.dovetail.table.schema.TableOptions;

/**
 * Who commits to a table, as its options declare: whether a store that cannot refuse a second
 * create of one name (see {@link S3ConditionalPut}) may still be written.
 */
public enum Writers {
    /** Any number of writers, possibly at once: publication must be create-if-absent. */
    CONCURRENT,
    /**
     * One writer at a time, declared by {@link TableOptions#COMMIT_SINGLE_WRITER}: commits proceed
     * on a store that ignores conditional writes, without protection against a second writer.
     */
    SINGLE
}
