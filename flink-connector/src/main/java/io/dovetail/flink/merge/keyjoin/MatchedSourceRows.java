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
package io.dovetail.flink.merge.keyjoin;

import org.apache.flink.api.common.accumulators.Accumulator;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * The numbers of the source rows a broadcast key join matched, merged over its writers: each writer
 * sees every source row but matches only its own groups' target rows, so a source row is unmatched
 * only if no writer matched it.
 */
public final class MatchedSourceRows implements Accumulator<Long, Roaring64NavigableMap> {

    private static final long serialVersionUID = 1L;

    private Roaring64NavigableMap numbers = empty();

    @Override
    public void add(Long number) {
        numbers.addLong(number);
    }

    @Override
    public Roaring64NavigableMap getLocalValue() {
        return numbers;
    }

    @Override
    public void resetLocal() {
        numbers = empty();
    }

    @Override
    public void merge(Accumulator<Long, Roaring64NavigableMap> other) {
        numbers.or(other.getLocalValue());
    }

    private static Roaring64NavigableMap empty() {
        return new Roaring64NavigableMap(false, false); // no cardinality cache: cheaper adds
    }

    @Override
    public MatchedSourceRows clone() {
        MatchedSourceRows copy = new MatchedSourceRows();
        copy.numbers.or(numbers);
        return copy;
    }
}
