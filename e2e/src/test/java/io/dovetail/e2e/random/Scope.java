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

/** Values and types of the names an expression refers to: a table alias and a column path. */
interface Scope {

    /** The value under {@code alias} (null: the target) at {@code path}, read through its type. */
    Object value(String alias, List<String> path);

    /** The type of {@code path} under {@code alias}; null if there is no such column. */
    ModelType type(String alias, List<String> path);

    /** {@code _ROW_ID}, typed BIGINT. */
    String ROW_ID = "_ROW_ID";
}
