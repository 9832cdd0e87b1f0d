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
package io.dovetail.table.data;

import io.dovetail.table.data.RandomRows.TypedRow;

import org.apache.flink.table.data.GenericRowData;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/** Random rows of every atomic type round-trip exactly and re-serialize to identical bytes. */
class BinaryRowCodecPropertyTest {

    @Property(tries = 500)
    void roundTripIsExactAndCanonical(@ForAll("rows") TypedRow typed) {
        BinaryRowCodec codec = BinaryRowCodec.of(typed.types());

        byte[] bytes = codec.serialize(typed.row());
        GenericRowData decoded = codec.deserialize(bytes);

        assertThat(decoded).isEqualTo(typed.row());
        assertThat(codec.serialize(decoded)).isEqualTo(bytes);
        assertThat(BinaryRowCodec.arity(bytes, "row")).isEqualTo(typed.types().size());
        assertThat(bytes.length % 8).isEqualTo(4);
    }

    @Provide
    Arbitrary<TypedRow> rows() {
        return RandomRows.rows(70);
    }
}
